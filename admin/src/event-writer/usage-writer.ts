// Moves the gateways' usage batches from the usage stream into the rollup table. At least once from
// the stream (ack after commit, stale entries claimed again), exactly once in the table: each batch id
// is recorded in the transaction that adds its counters (usage repository `storeBatch`), so a
// redelivered batch is skipped. An entry that is not a usage batch goes to the dead-letter stream.
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { createUsageRepository, createWakeablePause, StreamsError, USAGE_STREAM, UsageBatch, type Database, type EventStream, type StreamEntry } from '@palisade/core';
import { sendToDeadLetter } from './dead-letter.js';

export const USAGE_WRITER_GROUP = 'usage-writer';

export interface UsageWriterOptions {
  db: Database;
  events: EventStream;
  stream?: string;
  group?: string;
  consumer?: string;
  /** Batches per read (default 50; each holds one gateway's counters of one flush). */
  batchSize?: number;
  blockMs?: number;
  claimIdleMs?: number;
  retryMaxMs?: number;
  logger?: Pick<Logger, 'info' | 'warn'> | undefined;
}

export interface UsageWriter {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** One cycle without waiting; resolves to the entries handled. */
  drainOnce(): Promise<number>;
  readonly stats: { stored: number; duplicates: number; deadLettered: number; failures: number };
}

export function createUsageWriter(options: UsageWriterOptions): UsageWriter {
  const { events, logger } = options;
  const stream = options.stream ?? USAGE_STREAM;
  const group = options.group ?? USAGE_WRITER_GROUP;
  const consumer = options.consumer ?? `${hostname()}-${process.pid}`;
  const batchSize = options.batchSize ?? 50;
  const blockMs = options.blockMs ?? 1_000;
  const claimIdleMs = options.claimIdleMs ?? 30_000;
  const retryMaxMs = options.retryMaxMs ?? 10_000;
  const usage = createUsageRepository(options.db);
  const stats = { stored: 0, duplicates: 0, deadLettered: 0, failures: 0 };
  const { pause, wake } = createWakeablePause();
  let running = false;
  let loopDone: Promise<void> | undefined;
  let groupReady = false;
  let cycleRunning: Promise<number> | undefined;

  async function handle(entry: StreamEntry): Promise<void> {
    const parsed = UsageBatch.safeParse(entry.payload);
    if (!parsed.success) {
      await sendToDeadLetter(events, stream, consumer, [{ entryId: entry.id, payload: entry.payload, reason: `not a usage batch: ${parsed.error.issues[0]?.message ?? ''}` }], 10_000);
      stats.deadLettered++;
    } else if (await usage.storeBatch(parsed.data)) {
      stats.stored++;
    } else {
      stats.duplicates++;
    }
    // Only after the commit: a batch acked before it was stored would be lost with the writer.
    await events.ack(stream, group, [entry.id]);
  }

  async function cycle(waitMs: number): Promise<number> {
    if (!groupReady) {
      await events.ensureGroup(stream, group);
      groupReady = true;
    }
    let entries = await events.claimStale(stream, group, consumer, claimIdleMs, batchSize);
    if (entries.length === 0) entries = await events.read(stream, group, consumer, { count: batchSize, blockMs: waitMs });
    for (const entry of entries) await handle(entry);
    return entries.length;
  }

  // The loop and drainOnce() never run a cycle at the same time.
  async function exclusive(waitMs: number): Promise<number> {
    while (cycleRunning) await cycleRunning.catch(() => 0);
    cycleRunning = cycle(waitMs);
    try {
      return await cycleRunning;
    } finally {
      cycleRunning = undefined;
    }
  }

  async function loop(): Promise<void> {
    let backoffMs = 0;
    while (running) {
      try {
        await exclusive(blockMs);
        backoffMs = 0;
      } catch (err) {
        stats.failures++;
        if (err instanceof StreamsError && err.code === 'NOGROUP') groupReady = false;
        if (backoffMs === 0) logger?.warn({ stream, err: err instanceof Error ? err.message : String(err) }, 'usage writer cannot store usage batches; retrying (they stay pending in the stream)');
        backoffMs = backoffMs === 0 ? 250 : Math.min(backoffMs * 2, retryMaxMs);
        if (running) await pause(backoffMs);
      }
    }
  }

  return {
    async start() {
      if (running) return;
      await events.ensureGroup(stream, group);
      groupReady = true;
      running = true;
      loopDone = loop();
    },
    async stop() {
      running = false;
      wake();
      await loopDone;
    },
    drainOnce: () => exclusive(0),
    get stats() {
      return { ...stats };
    },
  };
}
