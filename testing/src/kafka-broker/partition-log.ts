// The single partition of one topic: its records in offset order, and the idempotent-producer sequence
// state a broker keeps per producer id (so a retried batch is not appended twice).
import { ERROR_CODES } from './error-codes.js';
import type { DecodedBatch } from './record-batch.js';
import type { KafkaTestRecord } from './types.js';

export interface AppendResult {
  errorCode: number;
  baseOffset: bigint;
}

interface ProducerState {
  epoch: number;
  lastSequence: number;
  /** The last few batches, as Kafka keeps five, to recognise a retried one and answer its offset. */
  recentBatches: Array<{ baseSequence: number; lastSequence: number; baseOffset: bigint }>;
}

const RECENT_BATCHES_KEPT = 5;
const NO_PRODUCER_ID = -1n;

export interface PartitionLog {
  readonly topic: string;
  readonly records: readonly KafkaTestRecord[];
  append(batch: DecodedBatch): AppendResult;
}

export function createPartitionLog(topic: string): PartitionLog {
  const records: KafkaTestRecord[] = [];
  const producers = new Map<bigint, ProducerState>();

  const write = (batch: DecodedBatch): bigint => {
    const baseOffset = records.length;
    batch.records.forEach((record, index) => {
      records.push({ topic, partition: 0, offset: baseOffset + index, ...record, compression: batch.compression });
    });
    return BigInt(baseOffset);
  };

  const refused = (errorCode: number): AppendResult => ({ errorCode, baseOffset: -1n });

  return {
    topic,
    records,
    append(batch) {
      if (batch.producerId === NO_PRODUCER_ID || batch.records.length === 0) return { errorCode: ERROR_CODES.NONE, baseOffset: write(batch) };

      const lastSequence = batch.baseSequence + batch.records.length - 1;
      const state = producers.get(batch.producerId);
      if (state && batch.producerEpoch < state.epoch) return refused(ERROR_CODES.INVALID_PRODUCER_EPOCH);
      if (state && batch.producerEpoch === state.epoch) {
        const retried = state.recentBatches.find((b) => b.baseSequence === batch.baseSequence && b.lastSequence === lastSequence);
        if (retried) return { errorCode: ERROR_CODES.NONE, baseOffset: retried.baseOffset };
        if (batch.baseSequence !== state.lastSequence + 1) return refused(ERROR_CODES.OUT_OF_ORDER_SEQUENCE_NUMBER);
      } else if (batch.baseSequence !== 0) {
        // A producer (or a new epoch of one) starts its sequence at 0 on every partition.
        return refused(ERROR_CODES.OUT_OF_ORDER_SEQUENCE_NUMBER);
      }

      const baseOffset = write(batch);
      const recentBatches = state && batch.producerEpoch === state.epoch ? state.recentBatches : [];
      recentBatches.push({ baseSequence: batch.baseSequence, lastSequence, baseOffset });
      if (recentBatches.length > RECENT_BATCHES_KEPT) recentBatches.shift();
      producers.set(batch.producerId, { epoch: batch.producerEpoch, lastSequence, recentBatches });
      return { errorCode: ERROR_CODES.NONE, baseOffset };
    },
  };
}
