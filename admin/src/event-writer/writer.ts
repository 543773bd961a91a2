// Moves security events from the event stream into PostgreSQL, at least once and without duplicates:
// a batch is acked only after the INSERT that holds it committed, the event id is the primary key (a
// redelivered event is skipped by ON CONFLICT), and entries a crashed writer took without acking are
// claimed again after claimIdleMs. While the database is down nothing is acked: the batch is retried
// with backoff and the entries stay pending in the stream.
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { createEventRepository, createExclusive, createWakeablePause, StreamsError, type Database, type EventStream, type SecurityEvent, type StreamEntry } from '@palisade/core';
import { parseBatch, type ParsedBatch } from './batch.js';
import { deadLetterStream, sendToDeadLetter, type DeadLetter } from './dead-letter.js';

/** The stream the gateway appends to (the gateway's SECURITY_EVENTS_STREAM). */
export const SECURITY_EVENTS_STREAM = 'palisade:security-events';
export const EVENT_WRITER_GROUP = 'event-writer';
/** A row takes 9 parameters and PostgreSQL allows 65 535 per statement. */
export const MAX_EVENT_BATCH_SIZE = 5_000;

export interface EventWriterOptions {
  db: Database;
  events: EventStream;
  /** Default SECURITY_EVENTS_STREAM. */
  stream?: string;
  /** Consumer group (default EVENT_WRITER_GROUP); every writer replica joins the same one. */
  group?: string;
  /** Unique per replica (default `<hostname>-<pid>`). */
  consumer?: string;
  /** Entries per batch and INSERT (default 500, at most MAX_EVENT_BATCH_SIZE). */
  batchSize?: number;
  /** How long a read waits for new entries (default 1000 ms); also the longest stop() waits for one. */
  blockMs?: number;
  /** Entries pending this long with another consumer are taken over (default 30 s). */
  claimIdleMs?: number;
  logger?: Pick<Logger, 'info' | 'warn' | 'error'> | undefined;
  /** First retry delay after a failure (default 250 ms), doubled up to retryMaxMs (default 10 s). */
  retryInitialMs?: number;
  retryMaxMs?: number;
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
  /** True from a failure until the next stored batch. */
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
  const consumer = options.consumer ?? `${hostname()}-${process.pid}`;
  const batchSize = options.batchSize ?? 500;
  const blockMs = options.blockMs ?? 1_000;
  const claimIdleMs = options.claimIdleMs ?? 30_000;
  const retryInitialMs = options.retryInitialMs ?? 250;
  const retryMaxMs = options.retryMaxMs ?? 10_000;
  const deadLetterMaxLen = options.deadLetterMaxLen ?? 10_000;
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_EVENT_BATCH_SIZE) {
    throw new RangeError(`batchSize must be an integer 1-${MAX_EVENT_BATCH_SIZE}, got ${batchSize}`);
  }
  // Stale entries appear at most once per claimIdleMs; looking more often than that (bounded) is enough.
  const claimEveryMs = Math.min(claimIdleMs, 5_000);
  const repository = createEventRepository<SecurityEvent>(db);

  const stats: Omit<EventWriterStats, 'running'> = { batches: 0, written: 0, acked: 0, claimed: 0, deadLettered: 0, failures: 0, degraded: false, lastError: null, lagSeconds: 0 };
  let held: Held | undefined;
  let groupReady = false;
  let lastClaimAt = Number.NEGATIVE_INFINITY;
  let running = false;
  let loopDone: Promise<void> | undefined;
  const { pause, wake } = createWakeablePause();
  /** Cycles run one at a time: the loop and drainOnce() share the held entries. */
  const exclusively = createExclusive();

  async function fetch(waitMs: number, forceClaim: boolean): Promise<StreamEntry[]> {
    let entries: StreamEntry[] = [];
    const now = Date.now();
    if (forceClaim || now - lastClaimAt >= claimEveryMs) {
      entries = await events.claimStale(stream, group, consumer, claimIdleMs, batchSize);
      stats.claimed += entries.length;
      // A full claim may have left more behind: look again on the next cycle.
      lastClaimAt = entries.length === batchSize ? Number.NEGATIVE_INFINITY : now;
    }
    if (entries.length < batchSize) {
      const fresh = await events.read(stream, group, consumer, { count: batchSize - entries.length, blockMs: entries.length > 0 ? 0 : waitMs });
      entries = entries.concat(fresh);
    }
    return entries;
  }

  async function deadLetter(letters: readonly DeadLetter[]): Promise<void> {
    if (letters.length === 0) return;
    await sendToDeadLetter(events, stream, consumer, letters, deadLetterMaxLen);
    stats.deadLettered += letters.length;
    logger?.warn(
      { stream, dead_letter: deadLetterStream(stream), entries: letters.slice(0, 10).map((l) => l.entryId), reason: letters[0]?.reason },
      `${letters.length} stream entries could not be stored as security events; sent to the dead-letter stream`,
    );
  }

  async function store(h: Held): Promise<void> {
    const rows = h.batch.valid.map((v) => v.event);
    if (rows.length === 0) return;
    try {
      await repository.insert(rows); // one multi-row INSERT … ON CONFLICT (id) DO NOTHING: all or nothing
      stats.written += rows.length;
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
        stats.written++;
      } catch (err) {
        if (!isRowError(err)) throw err;
        refused.push({ entryId, payload: event, reason: `refused by the database: ${errorMessage(err)}` });
      }
    }
    await deadLetter(refused);
  }

  async function cycle(waitMs: number, forceClaim: boolean): Promise<number> {
    if (!groupReady) {
      await events.ensureGroup(stream, group);
      groupReady = true;
    }
    if (held === undefined) {
      const entries = await fetch(waitMs, forceClaim);
      if (entries.length === 0) {
        stats.lagSeconds = 0;
        return 0;
      }
      held = { ids: entries.map((e) => e.id), batch: parseBatch(entries), deadLettered: false, stored: false };
    }
    const h = held;
    if (!h.deadLettered) {
      await deadLetter(h.batch.invalid);
      h.deadLettered = true;
    }
    if (!h.stored) {
      await store(h);
      h.stored = true;
    }
    // Only now: an entry acked before its row committed would be lost if the writer died in between.
    await events.ack(stream, group, h.ids);
    held = undefined;
    stats.batches++;
    stats.acked += h.ids.length;
    stats.lagSeconds = lagOf(h.batch.valid.map((v) => v.event.timestamp));
    if (stats.degraded) {
      stats.degraded = false;
      logger?.info({ stream, group, consumer }, 'event writer storing again');
    }
    return h.ids.length;
  }

  async function loop(): Promise<void> {
    let backoffMs = 0;
    while (running) {
      try {
        await exclusively(() => cycle(blockMs, false));
        backoffMs = 0;
      } catch (err) {
        stats.failures++;
        stats.lastError = errorMessage(err);
        // The stream backend lost its data (a Redis restart without persistence): recreate the group.
        if (err instanceof StreamsError && err.code === 'NOGROUP') groupReady = false;
        if (!stats.degraded) {
          stats.degraded = true;
          logger?.warn({ stream, group, consumer, err: stats.lastError, pending_batch: held?.ids.length ?? 0 }, 'event writer cannot store security events; retrying (entries stay pending in the stream)');
        }
        backoffMs = backoffMs === 0 ? retryInitialMs : Math.min(backoffMs * 2, retryMaxMs);
        if (running) await pause(backoffMs * (0.75 + Math.random() * 0.5));
      }
    }
  }

  return {
    async start() {
      if (running) return;
      running = true; // before the await, so that a second start() does not run a second loop
      try {
        await events.ensureGroup(stream, group);
      } catch (err) {
        running = false;
        throw err;
      }
      groupReady = true;
      loopDone = loop();
    },
    async stop() {
      running = false;
      wake();
      await loopDone;
      loopDone = undefined;
    },
    drainOnce: () => exclusively(() => cycle(0, true)),
    get stats(): EventWriterStats {
      return { ...stats, running };
    },
  };
}
