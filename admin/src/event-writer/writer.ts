// Moves security events from the event stream into PostgreSQL, at least once and without duplicates:
// a batch is acked only after the INSERT that holds it committed, the event id is the primary key (a
// redelivered event is skipped by ON CONFLICT), and entries a crashed writer took without acking are
// claimed again after claimIdleMs. While the database is down nothing is acked: the batch is retried
// with backoff and the entries stay pending in the stream.
import type { Logger } from 'pino';
import { createConsumerGroupWorker, createEventRepository, type Database, type SecurityEvent, type StreamReaderOptions } from '@palisade/core';
import { parseBatch, type ParsedBatch } from './batch.js';
import { deadLetterStream, sendToDeadLetter, type DeadLetter } from './dead-letter.js';

/** The stream the gateway appends to (the gateway's SECURITY_EVENTS_STREAM). */
export const SECURITY_EVENTS_STREAM = 'palisade:security-events';
export const EVENT_WRITER_GROUP = 'event-writer';
/** A row takes 9 parameters and PostgreSQL allows 65 535 per statement. */
export const MAX_EVENT_BATCH_SIZE = 5_000;

export interface EventWriterOptions extends StreamReaderOptions {
  db: Database;
  /** Entries per batch and INSERT (default 500, at most MAX_EVENT_BATCH_SIZE). */
  batchSize?: number;
  logger?: Pick<Logger, 'info' | 'warn' | 'error'> | undefined;
  /** Entries kept in the dead-letter stream (default 10 000). */
  deadLetterMaxLen?: number;
}

export interface EventWriterStats {
  /** Batches stored and acked. */
  batches: number;
  /** Events in committed INSERTs (a redelivered event counts again; the database keeps it once). */
  written: number;
  /** Stream entries acked, dead-lettered and in-batch duplicates included. */
  acked: number;
  /** Entries taken over from other (crashed) consumers. */
  claimed: number;
  /** Entries sent to the dead-letter stream: not a security event, or a row the database refused. */
  deadLettered: number;
  /** Cycles that failed (database or stream); each is retried. */
  failures: number;
  /** True from a failure until the next successful cycle. */
  degraded: boolean;
  /** Age (s) of the oldest event of the last batch stored, 0 once a read finds the stream caught up. */
  lagSeconds: number;
  lastError: string | null;
  running: boolean;
}

export interface EventWriter {
  /** Creates the consumer group (rejects if the stream cannot), then runs the loop in the background. */
  start(): Promise<void>;
  /** Ends the loop after the batch in progress; a batch that cannot be stored stays pending in the stream. */
  stop(): Promise<void>;
  /** One cycle without waiting: claim stale entries, read, store, ack. Resolves to the entries handled; rejects on failure. */
  drainOnce(): Promise<number>;
  readonly stats: EventWriterStats;
}

/** A batch read from the stream, kept across retries until it is acked. */
interface Held {
  ids: string[];
  batch: ParsedBatch;
  deadLettered: boolean;
  stored: boolean;
}

interface PgLikeError {
  code?: unknown;
}

/**
 * SQLSTATE class 22 (data exception) and 23 (integrity): the database refuses a row, and will refuse it
 * again. Anything else (connection lost, table missing, timeout) is an outage worth waiting out.
 */
function isRowError(err: unknown): boolean {
  const code = (err as PgLikeError | null)?.code;
  return typeof code === 'string' && (code.startsWith('22') || code.startsWith('23'));
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Seconds since the oldest of these event timestamps (ISO), 0 for none. */
function lagOf(timestamps: readonly string[]): number {
  let oldest = Number.POSITIVE_INFINITY;
  for (const t of timestamps) oldest = Math.min(oldest, Date.parse(t));
  return Number.isFinite(oldest) ? Math.max(0, (Date.now() - oldest) / 1000) : 0;
}

export function createEventWriter(options: EventWriterOptions): EventWriter {
  const { db, events, logger } = options;
  const stream = options.stream ?? SECURITY_EVENTS_STREAM;
  const group = options.group ?? EVENT_WRITER_GROUP;
  const batchSize = options.batchSize ?? 500;
  const blockMs = options.blockMs ?? 1_000;
  const deadLetterMaxLen = options.deadLetterMaxLen ?? 10_000;
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_EVENT_BATCH_SIZE) {
    throw new RangeError(`batchSize must be an integer 1-${MAX_EVENT_BATCH_SIZE}, got ${batchSize}`);
  }
  const repository = createEventRepository<SecurityEvent>(db);
  const counts = { batches: 0, written: 0, acked: 0, deadLettered: 0, lagSeconds: 0 };
  let held: Held | undefined;

  const worker = createConsumerGroupWorker({
    events,
    stream,
    group,
    consumer: options.consumer,
    claimIdleMs: options.claimIdleMs,
    retryInitialMs: options.retryInitialMs,
    retryMaxMs: options.retryMaxMs,
    cycle: async (reader, force) => {
      if (held === undefined) {
        const entries = await reader.fetch(batchSize, { blockMs: force ? 0 : blockMs, forceClaim: force });
        if (entries.length === 0) {
          counts.lagSeconds = 0;
          return { read: 0 };
        }
        held = { ids: entries.map((e) => e.id), batch: parseBatch(entries), deadLettered: false, stored: false };
      }
      const h = held;
      if (!h.deadLettered) {
        await deadLetter(reader.consumer, h.batch.invalid);
        h.deadLettered = true;
      }
      if (!h.stored) {
        await store(reader.consumer, h);
        h.stored = true;
      }
      // Only now: an entry acked before its row committed would be lost if the writer died in between.
      await reader.ack(h.ids);
      held = undefined;
      counts.batches++;
      counts.acked += h.ids.length;
      counts.lagSeconds = lagOf(h.batch.valid.map((v) => v.event.timestamp));
      return { read: h.ids.length };
    },
    onDegraded: (err) =>
      logger?.warn({ stream, group, err, pending_batch: held?.ids.length ?? 0 }, 'event writer cannot store security events; retrying (entries stay pending in the stream)'),
    onRecovered: () => logger?.info({ stream, group }, 'event writer storing again'),
  });

  async function deadLetter(consumer: string, letters: readonly DeadLetter[]): Promise<void> {
    if (letters.length === 0) return;
    await sendToDeadLetter(events, stream, consumer, letters, deadLetterMaxLen);
    counts.deadLettered += letters.length;
    logger?.warn(
      { stream, dead_letter: deadLetterStream(stream), entries: letters.slice(0, 10).map((l) => l.entryId), reason: letters[0]?.reason },
      `${letters.length} stream entries could not be stored as security events; sent to the dead-letter stream`,
    );
  }

  async function store(consumer: string, h: Held): Promise<void> {
    const rows = h.batch.valid.map((v) => v.event);
    if (rows.length === 0) return;
    try {
      await repository.insert(rows); // one multi-row INSERT … ON CONFLICT (id) DO NOTHING: all or nothing
      counts.written += rows.length;
      return;
    } catch (err) {
      if (!isRowError(err)) throw err;
    }
    // A row the database refuses must not hold back the rest forever: store row by row (each insert is
    // idempotent) and dead-letter the refused ones. An outage meanwhile aborts, and the batch is retried.
    const refused: DeadLetter[] = [];
    for (const { entryId, event } of h.batch.valid) {
      try {
        await repository.insert(event);
        counts.written++;
      } catch (err) {
        if (!isRowError(err)) throw err;
        refused.push({ entryId, payload: event, reason: `refused by the database: ${errorMessage(err)}` });
      }
    }
    await deadLetter(consumer, refused);
  }

  return {
    start: () => worker.start(),
    stop: () => worker.stop(),
    drainOnce: () => worker.drainOnce(),
    get stats(): EventWriterStats {
      const { running, degraded, failures, lastError, claimed } = worker.state;
      return { ...counts, claimed, failures, degraded, lastError, running };
    },
  };
}
