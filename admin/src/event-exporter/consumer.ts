// The exporter set as stored: one worker per exporter record (enabled or not — a disabled one moves
// its cursor without sending), reconciled with the `exporters` table every refresh interval. An edited
// record restarts its worker with the new configuration; the entries the old one held unacked pass to
// the new one, so an edit loses nothing. A deleted record's worker stops, and its metrics and its
// consumer group go.
import { hostname } from 'node:os';
import { createResourceStore, Exporter, type Database, type EventStream, type SecretBox, type StreamEntry } from '@palisade/core';
import type { Logger } from 'pino';
import { createSink, flushIntervalMs } from './create-sink.js';
import { createFileLocks, type FileLocks } from './file-sink.js';
import type { ExporterMetrics } from './metrics.js';
import { createExporterWorker, exporterGroup, type ExporterWorker } from './worker.js';

/** The stream the gateway appends security events to (the gateway's SECURITY_EVENTS_STREAM). */
export const SECURITY_EVENTS_STREAM = 'palisade:security-events';

export interface ExporterConsumerOptions {
  db: Database;
  events: EventStream;
  secrets: SecretBox;
  metrics: ExporterMetrics;
  stream?: string;
  /** Unique per replica (default `<hostname>-<pid>`); replicas share each exporter's group. */
  consumer?: string;
  pollIntervalMs?: number;
  /** How often the exporters table is read again (default 30 s: the spec's bound for picking up a change). */
  refreshMs?: number;
  claimIdleMs?: number;
  retryInitialMs?: number;
  retryMaxMs?: number;
  deadLetterMaxLen?: number;
  /** Webhook backoff base (default 1 s; tests shorten it). */
  webhookRetryBaseMs?: number;
  locks?: FileLocks;
  logger?: Pick<Logger, 'info' | 'warn' | 'error'> | undefined;
  now?: () => number;
}

export interface ExporterConsumer {
  /** Reads the exporters (rejects if it cannot), starts their workers, then refreshes in the background. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Reconciles the workers with the table now. */
  refresh(): Promise<void>;
  /** The running workers by exporter id. */
  readonly workers: ReadonlyMap<string, ExporterWorker>;
}

interface ExporterWorkerContext {
  stream: string;
  consumer: string;
  locks: FileLocks;
  /** The stream lost the worker's group: the consumer reads the exporters again at once. */
  onGroupLost(): void;
}

/** A worker for one exporter, with its sink, on the consumer's settings. */
function makeWorker(exporter: Exporter, options: ExporterConsumerOptions, context: ExporterWorkerContext): ExporterWorker {
  const { events, secrets, metrics, logger } = options;
  const { stream, consumer, locks } = context;
  const labels = { exporter_id: exporter.id, exporter_type: exporter.type };
  const sink = createSink(exporter, {
    secrets,
    locks,
    hooks: { onRetry: () => metrics.retried.inc(labels) },
    ...(options.webhookRetryBaseMs === undefined ? {} : { webhookRetryBaseMs: options.webhookRetryBaseMs }),
  });
  return createExporterWorker({
    exporter,
    sink,
    events,
    stream,
    consumer,
    metrics,
    flushIntervalMs: flushIntervalMs(exporter),
    ...(options.pollIntervalMs === undefined ? {} : { pollIntervalMs: options.pollIntervalMs }),
    ...(options.claimIdleMs === undefined ? {} : { claimIdleMs: options.claimIdleMs }),
    ...(options.retryInitialMs === undefined ? {} : { retryInitialMs: options.retryInitialMs }),
    ...(options.retryMaxMs === undefined ? {} : { retryMaxMs: options.retryMaxMs }),
    ...(options.deadLetterMaxLen === undefined ? {} : { deadLetterMaxLen: options.deadLetterMaxLen }),
    ...(options.now ? { now: options.now } : {}),
    onGroupLost: context.onGroupLost,
    logger,
  });
}

export function createExporterConsumer(options: ExporterConsumerOptions): ExporterConsumer {
  const { events, metrics, logger } = options;
  const store = createResourceStore(options.db);
  const stream = options.stream ?? SECURITY_EVENTS_STREAM;
  const consumer = options.consumer ?? `${hostname()}-${process.pid}`;
  const refreshMs = options.refreshMs ?? 30_000;
  const locks = options.locks ?? createFileLocks();
  const workers = new Map<string, ExporterWorker>();
  const versions = new Map<string, string>();
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let refreshing: Promise<void> = Promise.resolve();
  const workerContext: ExporterWorkerContext = { stream, consumer, locks, onGroupLost: () => void refreshOrKeep() };

  async function stopWorker(id: string): Promise<StreamEntry[]> {
    const worker = workers.get(id);
    workers.delete(id);
    versions.delete(id);
    return worker ? worker.stop() : [];
  }

  async function reconcile(): Promise<void> {
    const records = await store.exporters.all();
    const seen = new Set<string>();
    for (const record of records) {
      seen.add(record.id);
      const version = JSON.stringify(record);
      if (versions.get(record.id) === version) continue;
      const parsed = Exporter.safeParse(record);
      const inherited = await stopWorker(record.id);
      if (!parsed.success) {
        logger?.error({ exporter_id: record.id, issues: parsed.error.issues.slice(0, 5) }, 'stored exporter is not valid; not exporting to it');
        versions.set(record.id, version);
        continue;
      }
      const worker = makeWorker(parsed.data, options, workerContext);
      try {
        await worker.start(inherited);
      } catch (err) {
        await worker.stop();
        throw err;
      }
      workers.set(record.id, worker);
      versions.set(record.id, version);
      logger?.info({ exporter_id: record.id, exporter: record.name, type: record.type, enabled: record.enabled }, 'exporter worker started');
    }
    for (const id of [...workers.keys()]) {
      if (seen.has(id)) continue;
      const type = workers.get(id)!.exporter.type;
      await stopWorker(id);
      metrics.forget({ exporter_id: id, exporter_type: type });
      // Its group would otherwise stay on the stream for good, pending entries included. Every replica
      // drops it once it sees the deletion; another replica's worker that then meets NOGROUP makes its
      // consumer refresh at once (onGroupLost) and stops before its retry would create the group again.
      await events.dropGroup(stream, exporterGroup(id)).catch((err: unknown) => logger?.warn({ exporter_id: id, err: (err as Error).message }, 'cannot drop the deleted exporter\'s consumer group'));
      logger?.info({ exporter_id: id }, 'exporter deleted; stopped');
    }
    for (const id of [...versions.keys()]) if (!seen.has(id)) versions.delete(id);
  }

  /** One reconciliation at a time. */
  function refresh(): Promise<void> {
    const run = refreshing.then(reconcile, reconcile);
    refreshing = run.catch(() => undefined);
    return run;
  }

  /** A refresh whose failure is logged, not thrown: the running workers stay as they are. */
  function refreshOrKeep(): Promise<void> {
    return refresh().catch((err: unknown) => logger?.warn({ err: (err as Error).message }, 'cannot read the exporters; keeping the current ones'));
  }

  function schedule(): void {
    timer = setTimeout(() => {
      void refreshOrKeep().finally(() => {
        if (running) schedule();
      });
    }, refreshMs);
  }

  return {
    async start() {
      if (running) return;
      await refresh();
      running = true;
      schedule();
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      await refreshing;
      await Promise.all([...workers.keys()].map((id) => stopWorker(id)));
    },
    refresh,
    workers,
  };
}
