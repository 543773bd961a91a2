import t from 'tap';
import { backoffDelay, createBackoff } from './backoff.js';

t.test('doubles from the first delay up to the cap', async (t) => {
  const options = { initialMs: 100, maxMs: 1_000 };
  t.same(
    [0, 1, 2, 3, 4, 5].map((retry) => backoffDelay(retry, options)),
    [100, 200, 400, 800, 1_000, 1_000],
  );
  t.equal(backoffDelay(10_000, options), 1_000, 'a retry count past any float still answers the cap');
  t.equal(backoffDelay(0, { initialMs: 500, maxMs: 100 }), 100, 'the cap holds for the first delay too');
});

t.test('without a cap the delay keeps doubling', async (t) => {
  t.same(
    [0, 1, 2, 3].map((retry) => backoffDelay(retry, { initialMs: 1_000 })),
    [1_000, 2_000, 4_000, 8_000],
  );
});

t.test('a jitter spreads each delay over ±jitter of it', async (t) => {
  const at = (draw: number) => backoffDelay(2, { initialMs: 100, maxMs: 1_000, jitter: 0.25, random: () => draw });
  t.equal(at(0), 300);
  t.equal(at(0.5), 400);
  t.equal(at(1), 500);
  t.equal(backoffDelay(9, { initialMs: 100, maxMs: 1_000, jitter: 0.25, random: () => 1 }), 1_250, 'applied after the cap');
  for (let i = 0; i < 1_000; i++) {
    const delay = backoffDelay(0, { initialMs: 100, jitter: 0.25 });
    if (delay < 75 || delay > 125) t.fail(`jittered delay ${delay} is outside [75, 125]`);
  }
  t.equal(backoffDelay(1, { initialMs: 100, random: () => 0 }), 200, 'no jitter unless asked');
});

t.test('a retry loop counts failures until a success', async (t) => {
  const backoff = createBackoff({ initialMs: 10, maxMs: 40 });
  t.equal(backoff.failures, 0);
  t.same([backoff.fail(), backoff.fail(), backoff.fail(), backoff.fail()], [10, 20, 40, 40]);
  t.equal(backoff.failures, 4);
  t.equal(backoff.delay(), 40, 'delay() repeats the current delay');
  t.equal(backoff.failures, 4, 'and counts no failure');
  backoff.reset();
  t.equal(backoff.failures, 0);
  t.equal(backoff.delay(), 10, 'healthy: the next delay is the first');
  t.equal(backoff.fail(), 10, 'after a success it starts over');
});
