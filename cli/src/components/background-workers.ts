// The components without an HTTP API of their own (a loop over the database or the stream): the event
// writer, the report worker and the Kubernetes operator. Not in `palisade all`, whose other components
// run the same work; started alone each serves health and metrics on a port of our own.
// Each package is imported when its component starts (components/definition.ts says why).
import { COMPONENT_PORTS, createService, listen, type ComponentName, type Database, type ServiceMetrics } from '@palisade/core';
import type { ComponentContext } from '../context.js';
import type { ComponentDefinition } from './definition.js';

function backgroundWorker<W extends { start(): Promise<unknown>; stop(): Promise<unknown> }>(definition: {
  name: ComponentName;
  description: string;
  create(ctx: ComponentContext, db: Database): Promise<W>;
  /** Its own metrics beside the service's, on the same /metrics. */
  metrics?: (registry: ServiceMetrics['registry'], worker: W) => void | Promise<void>;
}): ComponentDefinition {
  const { name, description } = definition;
  return {
    name,
    port: COMPONENT_PORTS[name],
    description,
    inAll: false,
    async start(ctx, port, host) {
      const db = await ctx.database();
      const worker = await definition.create(ctx, db);
      await worker.start();
      const { app, metrics } = createService({ name, logger: ctx.logger, readiness: { database: () => db.ping() } });
      await definition.metrics?.(metrics.registry, worker);
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
    description: 'event writer alone (the registry runs one too): security events from the stream into PostgreSQL',
    create: async (ctx, db) => (await import('@palisade/admin')).createEventWriterComponent({ db, streams: await ctx.streams(), env: ctx.env, logger: ctx.logger }),
    // The package is loaded by then: create() ran first.
    metrics: async (registry, component) => (await import('@palisade/admin')).registerEventWriterMetrics(registry, () => component.writer.stats),
  }),
  backgroundWorker({
    name: 'report-worker',
    description: 'report worker alone (the admin API runs one too): generates requested PDF and CSV reports',
    create: async (ctx, db) => (await import('@palisade/admin')).createReportWorker({ db, logger: ctx.logger.child({ service: 'report-worker' }) }),
  }),
  backgroundWorker({
    name: 'operator',
    description: 'Kubernetes operator: Provider, SecurityProfile, ContentPolicy, EventExporter resources into the registry',
    create: async (ctx, db) => (await import('@palisade/operator')).createOperatorComponent({ db, secrets: ctx.secrets(), pubsub: (await ctx.streams()).pubsub, env: ctx.env, logger: ctx.logger }),
  }),
];
