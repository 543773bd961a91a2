// The components without an HTTP API of their own (a loop over the database or the stream): the event
// writer, the report worker and the Kubernetes operator. Not in `palisade all`, whose other components
// run the same work; started alone each serves health and metrics on a port of our own.
import { createEventWriterComponent, createReportWorker, registerEventWriterMetrics } from '@palisade/admin';
import { createService, listen, type Database, type ServiceMetrics } from '@palisade/core';
import { createOperatorComponent } from '@palisade/operator';
import type { ComponentContext } from '../context.js';
import type { ComponentDefinition } from './definition.js';

/** Ports of our own for the components without an HTTP API (health and metrics only). */
export const EVENT_WRITER_PORT = 8092;
export const OPERATOR_PORT = 8093;
export const REPORT_WORKER_PORT = 8094;

function backgroundWorker<W extends { start(): Promise<unknown>; stop(): Promise<unknown> }>(definition: {
  name: string;
  port: number;
  description: string;
  create(ctx: ComponentContext, db: Database): Promise<W>;
  /** Its own metrics beside the service's, on the same /metrics. */
  metrics?: (registry: ServiceMetrics['registry'], worker: W) => void;
}): ComponentDefinition {
  const { name, port, description } = definition;
  return {
    name,
    port,
    description,
    inAll: false,
    async start(ctx, port, host) {
      const db = await ctx.database();
      const worker = await definition.create(ctx, db);
      await worker.start();
      const { app, metrics } = createService({ name, logger: ctx.logger, readiness: { database: () => db.ping() } });
      definition.metrics?.(metrics.registry, worker);
      const url = await listen(app, { port, host });
      return {
        url,
        async close() {
          await worker.stop();
          await app.close();
        },
      };
    },
  };
}

export const BACKGROUND_WORKERS: readonly ComponentDefinition[] = [
  backgroundWorker({
    name: 'event-writer',
    port: EVENT_WRITER_PORT,
    description: 'event writer alone (the registry runs one too): security events from the stream into PostgreSQL',
    create: async (ctx, db) => createEventWriterComponent({ db, streams: await ctx.streams(), env: ctx.env, logger: ctx.logger }),
    metrics: (registry, component) => registerEventWriterMetrics(registry, () => component.writer.stats),
  }),
  backgroundWorker({
    name: 'report-worker',
    port: REPORT_WORKER_PORT,
    description: 'report worker alone (the admin API runs one too): generates requested PDF and CSV reports',
    create: async (ctx, db) => createReportWorker({ db, logger: ctx.logger.child({ service: 'report-worker' }) }),
  }),
  backgroundWorker({
    name: 'operator',
    port: OPERATOR_PORT,
    description: 'Kubernetes operator: Provider, SecurityProfile, ContentPolicy, EventExporter resources into the registry',
    create: async (ctx, db) => createOperatorComponent({ db, secrets: ctx.secrets(), pubsub: (await ctx.streams()).pubsub, env: ctx.env, logger: ctx.logger }),
  }),
];
