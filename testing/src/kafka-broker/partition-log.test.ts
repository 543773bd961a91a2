import t from 'tap';
import { createPartitionLog } from './partition-log.js';
import type { DecodedBatch } from './record-batch.js';

const batch = (values: string[], producer?: { id: bigint; epoch: number; baseSequence: number }): DecodedBatch => ({
  compression: 'none',
  producerId: producer?.id ?? -1n,
  producerEpoch: producer?.epoch ?? -1,
  baseSequence: producer?.baseSequence ?? -1,
  records: values.map((value) => ({ key: null, value: Buffer.from(value), headers: {}, timestamp: 1 })),
});

const values = (log: ReturnType<typeof createPartitionLog>): string[] => log.records.map((r) => r.value?.toString() ?? '');

t.test('plain batches are appended at consecutive offsets', async (t) => {
  const log = createPartitionLog('plain');
  t.same(log.append(batch(['a', 'b'])), { errorCode: 0, baseOffset: 0n });
  t.same(log.append(batch(['c'])), { errorCode: 0, baseOffset: 2n });
  t.same(log.records.map((r) => [r.offset, r.topic, r.partition]), [[0, 'plain', 0], [1, 'plain', 0], [2, 'plain', 0]]);
});

t.test('an idempotent producer: a retried batch is answered with its first offset and not appended again', async (t) => {
  const log = createPartitionLog('idem');
  const id = 1000n;
  t.same(log.append(batch(['a', 'b'], { id, epoch: 0, baseSequence: 0 })), { errorCode: 0, baseOffset: 0n });
  t.same(log.append(batch(['c'], { id, epoch: 0, baseSequence: 2 })), { errorCode: 0, baseOffset: 2n });
  t.same(log.append(batch(['a', 'b'], { id, epoch: 0, baseSequence: 0 })), { errorCode: 0, baseOffset: 0n }, 'duplicate');
  t.same(values(log), ['a', 'b', 'c']);
});

t.test('sequence gaps, stale epochs and a first batch not at 0 are refused', async (t) => {
  const log = createPartitionLog('strict');
  const id = 7n;
  t.equal(log.append(batch(['x'], { id, epoch: 0, baseSequence: 3 })).errorCode, 45, 'first batch must start at 0');
  t.equal(log.append(batch(['a'], { id, epoch: 1, baseSequence: 0 })).errorCode, 0);
  t.equal(log.append(batch(['gap'], { id, epoch: 1, baseSequence: 5 })).errorCode, 45, 'gap');
  t.equal(log.append(batch(['old'], { id, epoch: 0, baseSequence: 1 })).errorCode, 47, 'stale epoch');
  t.equal(log.append(batch(['new epoch'], { id, epoch: 2, baseSequence: 0 })).errorCode, 0, 'a new epoch restarts at 0');
  t.same(values(log), ['a', 'new epoch']);
});
