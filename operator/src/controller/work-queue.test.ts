import t from 'tap';
import { createWorkQueue } from './work-queue.js';

const tick = () => new Promise((r) => setTimeout(r, 5));

t.test('one key runs serially; a change during a run makes exactly one more run', async (t) => {
  let active = 0;
  let maxActive = 0;
  const runs: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const q = createWorkQueue({
    handler: async (key) => {
      active++;
      maxActive = Math.max(maxActive, active);
      runs.push(key);
      if (runs.length === 1) await gate;
      active--;
    },
  });
  q.add('a');
  await tick();
  q.add('a');
  q.add('a');
  q.add('a');
  await tick();
  t.equal(runs.length, 1, 'no parallel run of the same key');
  release();
  await q.idle();
  t.same(runs, ['a', 'a'], 'the three adds during the run collapse into one');
  t.equal(maxActive, 1);
});

t.test('different keys run side by side up to the concurrency', async (t) => {
  let active = 0;
  let maxActive = 0;
  const q = createWorkQueue({
    concurrency: 2,
    handler: async () => {
      active++;
      maxActive = Math.max(maxActive, active);
      await tick();
      active--;
    },
  });
  for (const k of ['a', 'b', 'c', 'd']) q.add(k);
  await q.idle();
  t.equal(maxActive, 2);
});

t.test('a failing key is retried with exponential backoff, reset on success', async (t) => {
  const times: number[] = [];
  const delays: number[] = [];
  const q = createWorkQueue({
    baseBackoffMs: 20,
    handler: async () => {
      times.push(Date.now());
      if (times.length < 4) throw new Error('not yet');
    },
    onError: (_key, _error, retryInMs) => delays.push(retryInMs),
  });
  q.add('k');
  await q.idle();
  t.equal(times.length, 4, 'three failures then a success');
  t.same(delays, [20, 40, 80], 'the delay doubles');
  for (let i = 1; i < times.length; i++) t.ok(times[i]! - times[i - 1]! >= delays[i - 1]! - 2, `retry ${i} waited its backoff`);
  t.equal(q.failures('k'), 0, 'reset after the success');
});

t.test('the backoff is capped', async (t) => {
  const delays: number[] = [];
  let n = 0;
  const q = createWorkQueue({
    baseBackoffMs: 1,
    maxBackoffMs: 4,
    handler: async () => {
      if (++n < 6) throw new Error('no');
    },
    onError: (_k, _e, d) => delays.push(d),
  });
  q.add('x');
  await q.idle();
  t.same(delays, [1, 2, 4, 4, 4]);
});

t.test('shutdown drops queued work and waits for the running handler', async (t) => {
  const seen: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let started!: () => void;
  const running = new Promise<void>((r) => (started = r));
  const q = createWorkQueue({
    concurrency: 1,
    handler: async (key) => {
      started();
      await gate;
      seen.push(key);
    },
  });
  q.add('a');
  q.add('b');
  await running;
  const stopping = q.shutdown();
  release();
  await stopping;
  t.same(seen, ['a'], 'b was dropped, a finished before shutdown resolved');
  q.add('c');
  await q.idle();
  t.same(seen, ['a'], 'nothing runs after shutdown');
});
