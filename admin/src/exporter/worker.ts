// One exporter's consumer: its own consumer group `exporter:<id>` on the event stream is its durable
// cursor. Each poll claims entries another replica left pending, reads new ones, skips those the
// exporter does not want (filters, disabled, older than the exporter) and hands the rest to the sink in
// chunks. An entry is acked only once its chunk was delivered or, after the sink's own retries,
// dead-lettered; while the destination is down the chunk is retried with backoff and nothing is acked,
// so neither an outage nor a restart loses an event (at least once).
import { createExclusive, createWakeablePause, matchesFilters, SecurityEvent, StreamsError, type EventStream, type Exporter, type StreamEntry } from '@palisade/core';
import type { Logger } from 'pino';
import { sendExporterDeadLetters } from './dead-letter.js';
import { mapEvent } from './mapping.js';
import type { ExporterMetrics } from './metrics.js';
import { DeliveryError, type ExportItem, type Sink } from './sink.js';

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

interface HeldItem extends ExportItem {
  entry: StreamEntry;
}

export function createExporterWorker(options: ExporterWorkerOptions): ExporterWorker {
  const { exporter, sink, events, stream, consumer, metrics, logger } = options;
  const group = exporterGroup(exporter.id);
  const pollIntervalMs = options.pollIntervalMs ?? 5_000;
  const claimIdleMs = options.claimIdleMs ?? 30_000;
  const flushIntervalMs = options.flushIntervalMs ?? 0;
  const retryInitialMs = options.retryInitialMs ?? 500;
  const retryMaxMs = options.retryMaxMs ?? 10_000;
  const deadLetterMaxLen = options.deadLetterMaxLen ?? 10_000;
  const now = options.now ?? Date.now;
  const labels = { exporter_id: exporter.id, exporter_type: exporter.type };
  const createdAt = Date.parse(exporter.created_at);
  // Read enough to fill the largest chunk the sink takes (kafka: batch_size), at least 100.
  const readCount = Math.max(sink.chunkSize, 100);
  const claimEveryMs = Math.min(claimIdleMs, 5_000);

  const stats: Omit<ExporterWorkerStats, 'held'> = { delivered: 0, skipped: 0, deadLettered: 0, failures: 0, retries: 0, claimed: 0, degraded: false, lastError: null };
  let held: HeldItem[] = [];
  /** Entries to process before reading: a previous worker's unacked ones. */
  let inbox: StreamEntry[] = [];
  let oldestHeldAt = 0;
  let groupReady = false;
  let lastClaimAt = Number.NEGATIVE_INFINITY;
  let failedChunk: string | undefined;
  let running = false;
  let loopDone: Promise<void> | undefined;
  const { pause, wake } = createWakeablePause();
  /** Cycles run one at a time: the loop and drainOnce() share the held entries. */
  const exclusively = createExclusive();

  /** Whether this exporter sends the event at all. */
  function wanted(event: SecurityEvent): boolean {
    if (!exporter.enabled) return false; // toggled off: sending stops, the cursor keeps moving
    // A new exporter's group starts at the beginning of the retained stream; it exports events from
    // its creation on, not the history (which is in the admin API and the reports).
    if (Date.parse(event.timestamp) < createdAt) return false;
    return matchesFilters(event, exporter.filters);
  }

  async function fetch(): Promise<StreamEntry[]> {
    let entries = inbox.splice(0, readCount);
    const t = now();
    if (entries.length < readCount && t - lastClaimAt >= claimEveryMs) {
      const taken = await events.claimStale(stream, group, consumer, claimIdleMs, readCount - entries.length);
      lastClaimAt = taken.length === readCount - entries.length ? Number.NEGATIVE_INFINITY : t;
      // Entries this worker holds itself (a destination down for longer than claimIdleMs) look stale too.
      const mine = new Set([...held.map((h) => h.entry.id), ...entries.map((e) => e.id)]);
      const claimed = taken.filter((e) => !mine.has(e.id));
      stats.claimed += claimed.length;
      entries = entries.concat(claimed);
    }
    if (entries.length < readCount) entries = entries.concat(await events.read(stream, group, consumer, { count: readCount - entries.length }));
    return entries;
  }

  /** Takes entries into `held`; acks the ones this exporter skips. */
  async function accept(entries: readonly StreamEntry[]): Promise<void> {
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
      await events.ack(stream, group, skip);
      stats.skipped += skip.length;
      metrics.filtered.inc(labels, skip.length);
    }
  }

  async function deliverHeld(): Promise<void> {
    while (held.length > 0) {
      const chunk = held.slice(0, sink.chunkSize);
      const key = chunk[0]!.entry.id;
      if (failedChunk === key) {
        stats.retries++;
        metrics.retried.inc(labels);
      }
      try {
        await sink.send(chunk);
        stats.delivered += chunk.length;
        metrics.delivered.inc(labels, chunk.length);
      } catch (err) {
        stats.failures++;
        metrics.failed.inc(labels);
        const permanent = err instanceof DeliveryError && !err.retryable;
        if (!permanent) {
          failedChunk = key;
          throw err;
        }
        const reason = err.message;
        await sendExporterDeadLetters(events, stream, exporter, chunk.map((i) => ({ entryId: i.entry.id, payload: i.entry.payload })), reason, deadLetterMaxLen, new Date(now()));
        stats.deadLettered += chunk.length;
        metrics.deadLettered.inc(labels, chunk.length);
        logger?.warn({ exporter_id: exporter.id, exporter: exporter.name, events: chunk.length, reason }, 'exporter gave up on events after its retries; sent to the dead-letter stream');
      }
      failedChunk = undefined;
      // Only now: an entry acked before delivery would be lost if the process died in between.
      await events.ack(stream, group, chunk.map((i) => i.entry.id));
      held = held.slice(chunk.length);
      if (held.length > 0) oldestHeldAt = now();
    }
    metrics.lagSeconds.set(labels, 0);
  }

  async function cycle(force: boolean): Promise<{ read: number; full: boolean }> {
    if (!groupReady) {
      await events.ensureGroup(stream, group);
      groupReady = true;
    }
    let read = 0;
    let full = false;
    if (held.length < readCount) {
      const entries = await fetch();
      read = entries.length;
      full = entries.length >= readCount;
      await accept(entries);
    }
    if (held.length > 0) {
      metrics.lagSeconds.set(labels, Math.max(0, (now() - Date.parse(held[0]!.event.timestamp)) / 1000));
      const due = force || flushIntervalMs === 0 || held.length >= sink.chunkSize || now() - oldestHeldAt >= flushIntervalMs;
      if (due) await deliverHeld();
    } else {
      metrics.lagSeconds.set(labels, 0);
    }
    if (stats.degraded) {
      stats.degraded = false;
      logger?.info({ exporter_id: exporter.id, exporter: exporter.name }, 'exporter delivering again');
    }
    return { read, full };
  }

  async function updatePending(): Promise<void> {
    try {
      metrics.pending.set(labels, await events.pending(stream, group));
    } catch {
      // a gauge is not worth a failure
    }
  }

  async function loop(): Promise<void> {
    let backoffMs = 0;
    while (running) {
      try {
        const { full } = await exclusively(() => cycle(false));
        backoffMs = 0;
        if (full) continue; // more is waiting: no pause
        await updatePending();
        const flushWait = held.length > 0 && flushIntervalMs > 0 ? Math.max(1, flushIntervalMs - (now() - oldestHeldAt)) : pollIntervalMs;
        if (running) await pause(Math.min(pollIntervalMs, flushWait));
      } catch (err) {
        stats.lastError = err instanceof Error ? err.message : String(err);
        if (err instanceof StreamsError && err.code === 'NOGROUP') {
          groupReady = false;
          options.onGroupLost?.();
        }
        if (!stats.degraded) {
          stats.degraded = true;
          logger?.warn({ exporter_id: exporter.id, exporter: exporter.name, type: exporter.type, err: stats.lastError, held: held.length }, 'exporter cannot deliver; retrying (events stay pending)');
        }
        backoffMs = backoffMs === 0 ? retryInitialMs : Math.min(backoffMs * 2, retryMaxMs);
        if (running) await pause(backoffMs * (0.75 + Math.random() * 0.5));
      }
    }
  }

  return {
    exporter,
    async start(inherited = []) {
      if (running) return;
      running = true;
      inbox = [...inherited];
      try {
        await events.ensureGroup(stream, group);
        groupReady = true;
      } catch (err) {
        running = false;
        throw err;
      }
      loopDone = loop();
    },
    async stop() {
      running = false;
      wake();
      await sink.close(); // aborts a webhook waiting between retries
      await loopDone;
      loopDone = undefined;
      const left = [...held.map((h) => h.entry), ...inbox];
      held = [];
      inbox = [];
      return left;
    },
    drainOnce: () => exclusively(async () => (await cycle(true)).read),
    get stats(): ExporterWorkerStats {
      return { ...stats, held: held.length };
    },
  };
}
