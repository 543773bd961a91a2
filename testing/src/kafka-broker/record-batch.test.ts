// Batches are encoded with kafkajs's own RecordBatch v2 encoder, the reference the broker must read.
import { createRequire } from 'node:module';
import t from 'tap';
import { createDecompressor } from './compression.js';
import { crc32c } from './crc32c.js';
import { BatchRejectedError, decodeRecordSet } from './record-batch.js';

const require = createRequire(import.meta.url);
const { RecordBatch } = require('kafkajs/src/protocol/recordBatch/v0') as { RecordBatch: (args: object) => Promise<{ buffer: Buffer }> };
const Record = require('kafkajs/src/protocol/recordBatch/record/v0') as (args: object) => unknown;

const encodeBatch = async (messages: Array<{ key?: string; value: string; headers?: Record<string, string>; timestampDelta?: number }>): Promise<Buffer> =>
  Buffer.from(
    (
      await RecordBatch({
        firstTimestamp: 1_700_000_000_000,
        maxTimestamp: 1_700_000_000_500,
        lastOffsetDelta: messages.length - 1,
        records: messages.map((m, offsetDelta) => Record({ ...m, offsetDelta })),
      })
    ).buffer,
  );

const rejection = async (promise: Promise<unknown>): Promise<BatchRejectedError | undefined> => {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return error instanceof BatchRejectedError ? error : undefined;
  }
};

t.test('CRC-32C matches the Castagnoli check value', async (t) => {
  t.equal(crc32c(Buffer.from('123456789')), 0xe3069283);
});

t.test('a kafkajs batch decodes to its records, with timestamps from the deltas', async (t) => {
  const set = await encodeBatch([{ key: 'a', value: '1', headers: { h: 'x' } }, { value: '2', timestampDelta: 500 }]);
  const batch = await decodeRecordSet(set, createDecompressor(), 7);
  t.equal(batch.compression, 'none');
  t.equal(batch.producerId, -1n);
  t.same(batch.records.map((r) => [r.key?.toString() ?? null, r.value?.toString(), r.timestamp]), [['a', '1', 1_700_000_000_000], [null, '2', 1_700_000_000_500]]);
  t.equal(batch.records[0]?.headers.h?.toString(), 'x');
});

t.test('more than one batch per partition is INVALID_RECORD, as on Kafka', async (t) => {
  const one = await encodeBatch([{ value: 'v' }]);
  t.equal((await rejection(decodeRecordSet(Buffer.concat([one, one]), createDecompressor(), 7)))?.code, 87);
});

t.test('an old message format (magic 1) is INVALID_RECORD', async (t) => {
  const set = await encodeBatch([{ value: 'v' }]);
  set.writeInt8(1, 16); // baseOffset(8) + length(4) + leaderEpoch(4) -> magic
  t.equal((await rejection(decodeRecordSet(set, createDecompressor(), 7)))?.code, 87);
});

t.test('a record count that promises more records than sent is CORRUPT_MESSAGE', async (t) => {
  const set = await encodeBatch([{ value: 'v' }]);
  // recordCount sits right before the records; raise it and fix the CRC so only the count is wrong.
  const countAt = 8 + 4 + 4 + 1 + 4 + 2 + 4 + 8 + 8 + 8 + 2 + 4;
  set.writeInt32BE(2, countAt);
  set.writeUInt32BE(crc32c(set.subarray(21)), 17);
  const error = await rejection(decodeRecordSet(set, createDecompressor(), 7));
  t.equal(error?.code, 2);
  t.match(error?.message, /record 1 of 2/);
});
