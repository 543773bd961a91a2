// One chunk of an exporter's held events to its sink: delivered, or, when the sink gives up on it for
// good (its own retries spent, a 4xx), sent to the exporter's dead-letter stream; either way the caller
// acks it afterwards. A failure worth waiting out (the destination down) is thrown, the chunk stays
// held, and its next attempt counts as a retry.
import type { EventStream, Exporter, StreamEntry } from '@palisade/core';
import type { Logger } from 'pino';
import { sendExporterDeadLetters } from './dead-letter.js';
import type { ExporterMetrics } from './metrics.js';
import { DeliveryError, type ExportItem, type Sink } from './sink.js';

/** An event the exporter holds until its chunk is delivered, with the stream entry it came from. */
export interface HeldItem extends ExportItem {
  entry: StreamEntry;
}

export interface ChunkDeliveryCounts {
  delivered: number;
  deadLettered: number;
  failures: number;
  retries: number;
}

export interface ChunkDeliveryOptions {
  exporter: Exporter;
  sink: Sink;
  events: EventStream;
  stream: string;
  metrics: ExporterMetrics;
  counts: ChunkDeliveryCounts;
  deadLetterMaxLen: number;
  now: () => number;
  logger?: Pick<Logger, 'warn'> | undefined;
}

/** Returns the delivery of one chunk: resolves once it is delivered or dead-lettered; rejects while the destination is down. */
export function createChunkDelivery(options: ChunkDeliveryOptions): (chunk: readonly HeldItem[]) => Promise<void> {
  const { exporter, sink, events, stream, metrics, counts, logger } = options;
  const labels = { exporter_id: exporter.id, exporter_type: exporter.type };
  /** The first entry of the chunk whose last attempt failed. */
  let failedChunk: string | undefined;

  async function deadLetter(chunk: readonly HeldItem[], reason: string): Promise<void> {
    const letters = chunk.map((i) => ({ entryId: i.entry.id, payload: i.entry.payload }));
    await sendExporterDeadLetters(events, stream, exporter, letters, reason, options.deadLetterMaxLen, new Date(options.now()));
    counts.deadLettered += chunk.length;
    metrics.deadLettered.inc(labels, chunk.length);
    logger?.warn({ exporter_id: exporter.id, exporter: exporter.name, events: chunk.length, reason }, 'exporter gave up on events after its retries; sent to the dead-letter stream');
  }

  return async (chunk) => {
    const key = chunk[0]!.entry.id;
    if (failedChunk === key) {
      counts.retries++;
      metrics.retried.inc(labels);
    }
    try {
      await sink.send(chunk);
      counts.delivered += chunk.length;
      metrics.delivered.inc(labels, chunk.length);
    } catch (err) {
      counts.failures++;
      metrics.failed.inc(labels);
      const permanent = err instanceof DeliveryError && !err.retryable;
      if (!permanent) {
        failedChunk = key;
        throw err;
      }
      await deadLetter(chunk, err.message);
    }
    failedChunk = undefined;
  };
}
