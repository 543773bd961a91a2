// Moves the gateways' usage batches from the usage stream into the rollup table. At least once from
// the stream (ack after commit, stale entries claimed again), exactly once in the table: each batch id
// is recorded in the transaction that adds its counters (usage repository `storeBatch`), so a
// redelivered batch is skipped. An entry that is not a usage batch goes to the dead-letter stream.
import type { Logger } from 'pino';
import { createConsumerGroupWorker, createUsageRepository, USAGE_STREAM, UsageBatch, type Database, type StreamEntry, type StreamReaderOptions } from '@palisade/core';
import { sendToDeadLetter } from './dead-letter.js';

export const USAGE_WRITER_GROUP = 'usage-writer';

export interface UsageWriterOptions extends StreamReaderOptions {
  db: Database;
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
  // Each batch holds one gateway's counters of one flush.
  const batchSize = options.batchSize ?? 50;
  const blockMs = options.blockMs ?? 1_000;
  const usage = createUsageRepository(options.db);
  const counts = { stored: 0, duplicates: 0, deadLettered: 0 };

  // Entry by entry: each batch is its own transaction, acked right after it committed.
  async function handle(entry: StreamEntry, consumer: string): Promise<void> {
    const parsed = UsageBatch.safeParse(entry.payload);
    if (!parsed.success) {
      await sendToDeadLetter(events, stream, consumer, [{ entryId: entry.id, payload: entry.payload, reason: `not a usage batch: ${parsed.error.issues[0]?.message ?? ''}` }], 10_000);
      counts.deadLettered++;
    } else if (await usage.storeBatch(parsed.data)) {
      counts.stored++;
    } else {
      counts.duplicates++;
    }
  }

  const worker = createConsumerGroupWorker({
    events,
    stream,
    group: options.group ?? USAGE_WRITER_GROUP,
    consumer: options.consumer,
    claimIdleMs: options.claimIdleMs,
    retryMaxMs: options.retryMaxMs,
    cycle: async (reader, force) => {
      const entries = await reader.fetch(batchSize, { blockMs: force ? 0 : blockMs, forceClaim: force });
      for (const entry of entries) {
        await handle(entry, reader.consumer);
        // Only after the commit: a batch acked before it was stored would be lost with the writer.
        await reader.ack([entry.id]);
      }
      return { read: entries.length };
    },
    onDegraded: (err) => logger?.warn({ stream, err }, 'usage writer cannot store usage batches; retrying (they stay pending in the stream)'),
    onRecovered: () => logger?.info({ stream }, 'usage writer storing again'),
  });

  return {
    start: () => worker.start(),
    stop: () => worker.stop(),
    drainOnce: () => worker.drainOnce(),
    get stats() {
      return { ...counts, failures: worker.state.failures };
    },
  };
}
