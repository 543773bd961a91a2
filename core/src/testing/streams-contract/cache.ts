// The contract of Streams.cache: keys, TTLs, counters and sliding-window rate limits.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Test } from 'tap';
import type { StreamsContractContext } from './context.js';

/** get, set, del, TTLs and incr. */
export function cacheContract(t: Test, { open, uniq }: StreamsContractContext): void {
  t.test('cache: get, set, overwrite, del', async (tt) => {
    const { cache } = await open(tt);
    const k = uniq('k');
    tt.equal(await cache.get(k), null, 'missing key is null');
    await cache.set(k, 'v1');
    tt.equal(await cache.get(k), 'v1');
    await cache.set(k, 'v2');
    tt.equal(await cache.get(k), 'v2', 'overwritten');
    tt.equal(await cache.del(k), true, 'del of an existing key');
    tt.equal(await cache.del(k), false, 'del of a missing key');
    tt.equal(await cache.get(k), null);
    await tt.rejects(cache.set(k, 'x', 0), { code: 'INVALID' }, 'ttl 0 is refused');
    await tt.rejects(cache.get(''), { code: 'INVALID' }, 'empty key is refused');
  });

  t.test('cache: TTL expiry, and a set without TTL drops the old TTL', async (tt) => {
    const { cache } = await open(tt);
    const a = uniq('ttl');
    const b = uniq('ttl');
    await cache.set(a, 'short', 40);
    await cache.set(b, 'first', 40);
    await cache.set(b, 'kept');
    tt.equal(await cache.get(a), 'short', 'present before the TTL');
    await sleep(70);
    tt.equal(await cache.get(a), null, 'expired after the TTL');
    tt.equal(await cache.get(b), 'kept', 'set without TTL never expires');
    tt.equal(await cache.del(a), false, 'an expired key does not count as deleted');
  });

  t.test('cache: incr is atomic under 200 concurrent calls', async (tt) => {
    const { cache } = await open(tt);
    const k = uniq('ctr');
    const values = await Promise.all(Array.from({ length: 200 }, () => cache.incr(k)));
    tt.equal(await cache.get(k), '200');
    tt.same([...values].sort((x, y) => x - y), Array.from({ length: 200 }, (_, i) => i + 1), 'every call saw a distinct value');
    tt.equal(await cache.incr(k, 5), 205, 'incr by 5');
    tt.equal(await cache.incr(k, -10), 195, 'negative increments');
    const text = uniq('text');
    await cache.set(text, 'abc');
    await tt.rejects(cache.incr(text), { code: 'INVALID' }, 'incr of a non-integer value');
    await tt.rejects(cache.incr(k, 1.5), { code: 'INVALID' }, 'fractional increments are refused');
  });

  t.test('cache: incr sets the TTL when it creates the key and never extends it', async (tt) => {
    const { cache } = await open(tt);
    const k = uniq('win');
    tt.equal(await cache.incr(k, 1, 80), 1);
    await sleep(30);
    tt.equal(await cache.incr(k, 1, 80), 2, 'second hit in the window');
    await sleep(75); // 105 ms after creation: gone if the TTL was not extended by the second hit
    tt.equal(await cache.get(k), null, 'expired 80 ms after creation');
    tt.equal(await cache.incr(k, 1, 80), 1, 'a new window starts at 1');
  });
}

/** slidingWindow: explicit and real time, and under concurrent hits. */
export function rateLimitContract(t: Test, { open, uniq }: StreamsContractContext): void {
  t.test('cache: sliding window with explicit times', async (tt) => {
    const { cache } = await open(tt);
    const k = uniq('rl');
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) {
      const r = await cache.slidingWindow(k, 3, 1_000, t0 + i);
      tt.match(r, { allowed: true, count: i + 1, remaining: 2 - i, retryAfterMs: 0, limit: 3 }, `hit ${i + 1} allowed`);
    }
    const refused = await cache.slidingWindow(k, 3, 1_000, t0 + 3);
    tt.same(refused, { allowed: false, count: 3, limit: 3, remaining: 0, resetAtMs: t0 + 1_000, retryAfterMs: 997 }, '4th refused');
    const again = await cache.slidingWindow(k, 3, 1_000, t0 + 1_000);
    tt.match(again, { allowed: true, count: 3, remaining: 0 }, 'allowed once the first hit left the window');
    const next = await cache.slidingWindow(k, 3, 1_000, t0 + 1_000);
    tt.match(next, { allowed: false, retryAfterMs: 1, resetAtMs: t0 + 1_001 }, 'refused hits are not counted: the next slot frees 1 ms later');
    await tt.rejects(cache.slidingWindow(k, -1, 1_000), { code: 'INVALID' });
    await tt.rejects(cache.slidingWindow(k, 1, 0), { code: 'INVALID' });
  });

  t.test('cache: sliding window in real time (limit 3 per second)', async (tt) => {
    const { cache } = await open(tt);
    const k = uniq('rl');
    // A second, not tens of milliseconds: four calls on a loaded machine must fall in one window.
    const windowMs = 1_000;
    await cache.set(k, 'cached');
    for (let i = 0; i < 3; i++) tt.equal((await cache.slidingWindow(k, 3, windowMs)).allowed, true, `hit ${i + 1} allowed`);
    const refused = await cache.slidingWindow(k, 3, windowMs);
    tt.equal(refused.allowed, false, '4th refused');
    tt.equal(refused.remaining, 0);
    tt.ok(refused.retryAfterMs > 0 && refused.retryAfterMs <= windowMs, `retryAfterMs ${refused.retryAfterMs} in (0, ${windowMs}]`);
    tt.ok(refused.resetAtMs > Date.now() - 1_000, 'resetAtMs is an epoch time');
    await sleep(refused.retryAfterMs + 15);
    tt.equal((await cache.slidingWindow(k, 3, windowMs)).allowed, true, 'allowed again after the window passed');
    tt.equal(await cache.get(k), 'cached', 'rate-limit keys do not collide with cache keys');
  });

  t.test('cache: concurrent hits never exceed the limit', async (tt) => {
    const { cache } = await open(tt);
    const k = uniq('rl');
    const results = await Promise.all(Array.from({ length: 60 }, () => cache.slidingWindow(k, 10, 10_000)));
    tt.equal(results.filter((r) => r.allowed).length, 10, 'exactly 10 of 60 allowed');
    tt.ok(results.every((r) => r.count <= 10 && r.remaining >= 0));
    tt.ok(results.filter((r) => !r.allowed).every((r) => r.retryAfterMs > 0));
  });
}
