import t from 'tap';
import { createDynamicBatcher } from './batcher.js';

t.test('concurrent items run as one batch; what arrives during a run goes in the next', async (t) => {
  const batches: number[][] = [];
  const batcher = createDynamicBatcher<number, number>({
    maxBatch: 8,
    maxWaitMs: 5,
    async run(items) {
      batches.push(items);
      await new Promise((r) => setTimeout(r, 20));
      return items.map((x) => x * 10);
    },
  });
  const first = [1, 2, 3].map((x) => batcher.submit(x));
  await new Promise((r) => setTimeout(r, 10)); // the first batch is running now
  const second = [4, 5].map((x) => batcher.submit(x));
  t.same(await Promise.all([...first, ...second]), [10, 20, 30, 40, 50], 'each caller gets its own result');
  t.same(batches, [[1, 2, 3], [4, 5]]);
  t.equal(batcher.runs, 2);
});

t.test('a full batch runs without waiting, the rest follows', async (t) => {
  const batches: number[][] = [];
  const batcher = createDynamicBatcher<number, number>({ maxBatch: 2, maxWaitMs: 60_000, run: async (items) => (batches.push(items), items) });
  t.same(await Promise.all([1, 2, 3, 4].map((x) => batcher.submit(x))), [1, 2, 3, 4]);
  t.same(batches, [[1, 2], [3, 4]]);
});

t.test("a failed run rejects its batch's callers and the batcher goes on", async (t) => {
  let fail = true;
  const batcher = createDynamicBatcher<number, number>({
    maxBatch: 4,
    maxWaitMs: 1,
    async run(items) {
      if (fail) throw new Error('boom');
      return items;
    },
  });
  await t.rejects(Promise.all([batcher.submit(1), batcher.submit(2)]), /boom/);
  fail = false;
  t.equal(await batcher.submit(3), 3);
});

t.test('an item whose caller aborted while it waited never runs', async (t) => {
  const batches: number[][] = [];
  const batcher = createDynamicBatcher<number, number>({
    maxBatch: 2,
    maxWaitMs: 1,
    async run(items) {
      batches.push(items);
      await new Promise((r) => setTimeout(r, 20));
      return items;
    },
  });
  const first = batcher.submit(1);
  await new Promise((r) => setTimeout(r, 5)); // running now
  const gaveUp = new AbortController();
  const long = [2, 3, 4, 5].map((x) => batcher.submit(x, gaveUp.signal));
  const other = batcher.submit(6);
  gaveUp.abort(new Error('deadline'));
  for (const p of long) await t.rejects(p, /deadline/);
  t.equal(await first, 1);
  t.equal(await other, 6);
  t.same(batches, [[1], [6]]);
});
