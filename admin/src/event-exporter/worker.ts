// One exporter's consumer: its own consumer group `exporter:<id>` on the event stream is its durable
// cursor. Each poll claims entries another replica left pending, reads new ones, skips those the
// exporter does not want (filters, disabled, older than the exporter) and hands the rest to the sink in
// chunks. An entry is acked only once its chunk was delivered or, after the sink's own retries,
// dead-lettered; while the destination is down the chunk is retried with backoff and nothing is acked,
// so neither an outage nor a restart loses an event (at least once).
import { createConsumerGroupWorker, SecurityEvent, type ConsumerGroupReader, type EventStream, type Exporter, type StreamEntry } from '@palisade/core';
import type { Logger } from 'pino';
import { createChunkDelivery, type HeldItem } from './chunk-delivery.js';
import { mapEvent } from './mapping.js';
import type { ExporterMetrics } from './metrics.js';
import type { Sink } from './sink.js';
import { exporterWants } from './wanted.js';

export const exporterGroup = (exporterId: string): string => `exporter:${exporterId}`;

export interface ExporterWorkerOptions {
  exporter: Exporter;
  sink: Sink;
  events: EventStream;
  stream: string;
  consumer: string;
  metrics: ExporterMetrics;
  /** Pause between polls when the stream has nothing more (default 5000 ms). */
  pollIntervalMs?: number;
  /** Entries pending this long with another consumer are taken over (default 30 s). */
  claimIdleMs?: number;
  /** How long events may wait to fill a chunk (kafka flush_interval; default 0: send what a poll read). */
  flushIntervalMs?: number;
  /** Backoff after a failed delivery: first delay (default 500 ms), doubled up to retryMaxMs (default 10 s). */
  retryInitialMs?: number;
  retryMaxMs?: number;
  deadLetterMaxLen?: number;
  /**
   * Called when the stream says the group is gone (NOGROUP) while running, before the next attempt
   * creates it again: the consumer re-reads the exporters at once, so the worker of an exporter that
   * another replica deleted (and whose group it dropped) stops instead of replaying the stream.
   */
  onGroupLost?: () => void;
  logger?: Pick<Logger, 'info' | 'warn' | 'error'> | undefined;
  now?: () => number;
}

export interface ExporterWorkerStats {
  delivered: number;
  skipped: number;
  deadLettered: number;
  failures: number;
  retries: number;
  claimed: number;
  degraded: boolean;
  lastError: string | null;
  held: number;
}

export interface ExporterWorker {
  readonly exporter: Exporter;
  /** Creates the group if missing, then polls in the background; `inherited` are entries a previous worker of this exporter held unacked. */
  start(inherited?: readonly StreamEntry[]): Promise<void>;
  /** Ends after the chunk in progress and closes the sink; resolves to the entries read and not acked. */
  stop(): Promise<StreamEntry[]>;
  /** One cycle without waiting for the flush interval; resolves to the entries read; rejects on failure. */
  drainOnce(): Promise<number>;
  readonly stats: ExporterWorkerStats;
}

/** The gauge of the entries the exporter's group has read and not acked. */
async function setPendingGauge(events: EventStream, stream: string, group: string, metrics: ExporterMetrics, labels: { exporter_id: string; exporter_type: string }): Promise<void> {
  try {
    metrics.pending.set(labels, await events.pending(stream, group));
  } catch {
    // a gauge is not worth a failure
  }
}

export function createExporterWorker(options: ExporterWorkerOptions): ExporterWorker {
  const { exporter, sink, events, stream, metrics, logger } = options;
  const pollIntervalMs = options.pollIntervalMs ?? 5_000;
  const flushIntervalMs = options.flushIntervalMs ?? 0;
  const deadLetterMaxLen = options.deadLetterMaxLen ?? 10_000;
  const now = options.now ?? Date.now;
  const labels = { exporter_id: exporter.id, exporter_type: exporter.type };
  const wanted = exporterWants(exporter);
  // Read enough to fill the largest chunk the sink takes (kafka: batch_size), at least 100.
  const readCount = Math.max(sink.chunkSize, 100);

  const counts = { delivered: 0, skipped: 0, deadLettered: 0, failures: 0, retries: 0 };
  let held: HeldItem[] = [];
  /** Entries to process before reading: a previous worker's unacked ones. */
  let inbox: StreamEntry[] = [];
  let oldestHeldAt = 0;
  const deliver = createChunkDelivery({ exporter, sink, events, stream, metrics, counts, deadLetterMaxLen, now, logger });

  async function fetch(reader: ConsumerGroupReader): Promise<StreamEntry[]> {
    const entries = inbox.splice(0, readCount);
    if (entries.length >= readCount) return entries;
    // Entries this worker holds itself (a destination down for longer than claimIdleMs) look stale too.
    const mine = new Set([...held.map((h) => h.entry.id), ...entries.map((e) => e.id)]);
    return entries.concat(await reader.fetch(readCount - entries.length, { exclude: mine }));
  }

  /** Takes entries into `held`; acks the ones this exporter skips. */
  async function accept(reader: ConsumerGroupReader, entries: readonly StreamEntry[]): Promise<void> {
    const skip: string[] = [];
    for (const entry of entries) {
      const parsed = SecurityEvent.safeParse(entry.payload);
      // Not an event: the event writer dead-letters it already; an exporter cannot send it either.
      if (!parsed.success || !wanted(parsed.data)) {
        skip.push(entry.id);
        continue;
      }
      if (held.length === 0) oldestHeldAt = now();
      held.push({ entry, event: parsed.data, mapped: mapEvent(parsed.data, exporter) });
    }
    if (skip.length > 0) {
      await reader.ack(skip);
      counts.skipped += skip.length;
      metrics.filtered.inc(labels, skip.length);
    }
  }

  async function deliverHeld(reader: ConsumerGroupReader): Promise<void> {
    while (held.length > 0) {
      const chunk = held.slice(0, sink.chunkSize);
      await deliver(chunk); // throws while the destination is down: the chunk stays held
      // Only now: an entry acked before delivery would be lost if the process died in between.
      await reader.ack(chunk.map((i) => i.entry.id));
      held = held.slice(chunk.length);
      if (held.length > 0) oldestHeldAt = now();
    }
    metrics.lagSeconds.set(labels, 0);
  }

  const worker = createConsumerGroupWorker({
    events,
    stream,
    group: exporterGroup(exporter.id),
    consumer: options.consumer,
    claimIdleMs: options.claimIdleMs,
    retryInitialMs: options.retryInitialMs ?? 500,
    retryMaxMs: options.retryMaxMs,
    now,
    cycle: async (reader, force) => {
      let read = 0;
      let full = false;
      if (held.length < readCount) {
        const entries = await fetch(reader);
        read = entries.length;
        full = entries.length >= readCount;
        await accept(reader, entries);
      }
      if (held.length > 0) {
        metrics.lagSeconds.set(labels, Math.max(0, (now() - Date.parse(held[0]!.event.timestamp)) / 1000));
        const due = force || flushIntervalMs === 0 || held.length >= sink.chunkSize || now() - oldestHeldAt >= flushIntervalMs;
        if (due) await deliverHeld(reader);
      } else {
        metrics.lagSeconds.set(labels, 0);
      }
      if (full) return { read, more: true }; // more is waiting: no pause
      await setPendingGauge(events, stream, worker.reader.group, metrics, labels);
      const flushWait = held.length > 0 && flushIntervalMs > 0 ? Math.max(1, flushIntervalMs - (now() - oldestHeldAt)) : pollIntervalMs;
      return { read, pauseMs: Math.min(pollIntervalMs, flushWait) };
    },
    onGroupLost: options.onGroupLost,
    onDegraded: (err) =>
      logger?.warn({ exporter_id: exporter.id, exporter: exporter.name, type: exporter.type, err, held: held.length }, 'exporter cannot deliver; retrying (events stay pending)'),
    onRecovered: () => logger?.info({ exporter_id: exporter.id, exporter: exporter.name }, 'exporter delivering again'),
    // Aborts a webhook waiting between its own retries.
    onStopping: () => sink.close(),
  });

  return {
    exporter,
    async start(inherited = []) {
      inbox = [...inherited];
      await worker.start();
    },
    async stop() {
      await worker.stop();
      const left = [...held.map((h) => h.entry), ...inbox];
      held = [];
      inbox = [];
      return left;
    },
    drainOnce: () => worker.drainOnce(),
    get stats(): ExporterWorkerStats {
      const { degraded, lastError, claimed } = worker.state;
      return { ...counts, claimed, degraded, lastError, held: held.length };
    },
  };
}
