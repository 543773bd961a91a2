/**
 * The contract suite every Streams implementation must pass, run by memory.test.ts and redis.test.ts
 * with their own factory. Only real time is used (tens of ms), so both backends are held to exactly
 * the same observable behaviour. Test support only: nothing in production imports this file.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Test } from 'tap';
import type { StreamsErrorReporter, StreamEntry, Streams } from './types.js';

export type StreamsFactory = (options?: { onError?: StreamsErrorReporter }) => Promise<Streams>;

/** Polls until cond() is true, or fails after timeoutMs. */
export async function waitFor(cond: () => boolean, timeoutMs = 2_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) return false;
    await sleep(5);
  }
  return true;
}

/** Active handles that keep a process alive (sockets, timers), as Node reports them. */
function liveResources(): number {
  return process.getActiveResourcesInfo().filter((r) => r !== 'FSReqCallback' && r !== 'PipeWrap' && r !== 'TTYWrap').length;
}

export function streamsContract(t: Test, factory: StreamsFactory): void {
  let n = 0;
  const uniq = (what: string): string => `${what}-${++n}-${randomUUID().slice(0, 8)}`;
  const open = async (tt: Test, options?: { onError?: StreamsErrorReporter }): Promise<Streams> => {
    const s = await factory(options);
    tt.teardown(() => s.close());
    return s;
  };

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

  t.test('pubsub: delivery, several handlers, unsubscribe', async (tt) => {
    const { pubsub } = await open(tt);
    const ch = uniq('config');
    const other = uniq('other');
    const a: string[] = [];
    const b: string[] = [];
    const channels: string[] = [];
    const offA = await pubsub.subscribe(ch, (m, c) => {
      a.push(m);
      channels.push(c);
    });
    const offB = await pubsub.subscribe(ch, (m) => b.push(m));
    const offOther = await pubsub.subscribe(other, (m) => b.push(`other:${m}`));
    await pubsub.publish(ch, 'rev-1');
    tt.ok(await waitFor(() => a.length === 1 && b.length === 1), 'both handlers got the message');
    tt.same(a, ['rev-1']);
    tt.same(channels, [ch], 'handler receives the channel name without prefix');
    await offA();
    await offA(); // idempotent
    await pubsub.publish(ch, 'rev-2');
    tt.ok(await waitFor(() => b.length === 2), 'remaining handler still subscribed');
    await offB();
    await pubsub.publish(ch, 'rev-3');
    await sleep(50);
    tt.same(a, ['rev-1'], 'no delivery after unsubscribe');
    tt.same(b, ['rev-1', 'rev-2'], 'no delivery after unsubscribe, nothing crossed channels');
    await offOther();
    await pubsub.publish(uniq('nobody'), 'x'); // publishing without subscribers is fine
  });

  t.test('pubsub: a throwing handler is reported and does not stop the others', async (tt) => {
    const errors: string[] = [];
    const { pubsub } = await open(tt, { onError: (err, ctx) => errors.push(`${ctx}: ${err.message}`) });
    const ch = uniq('ch');
    const got: string[] = [];
    await pubsub.subscribe(ch, () => {
      throw new Error('boom');
    });
    await pubsub.subscribe(ch, (m) => got.push(m));
    await pubsub.publish(ch, 'hello');
    tt.ok(await waitFor(() => got.length === 1 && errors.length === 1));
    tt.match(errors[0], /boom/);
  });

  t.test('events: append, read, ack', async (tt) => {
    const { events } = await open(tt);
    const s = uniq('events');
    await events.ensureGroup(s, 'writer');
    const payloads = [{ type: 'ALLOW', tenant: 't1' }, { event_type: 'PII_DETECTED', score: 0.9, pii: [{ type: 'EMAIL', start: 3 }] }, ['a', 1]];
    const ids: string[] = [];
    for (const p of payloads) ids.push(await events.append(s, p));
    tt.ok(ids.every((id) => /^\d+-\d+$/.test(id)), 'ids look like <ms>-<seq>');
    tt.equal(new Set(ids).size, 3);
    const got = await events.read(s, 'writer', 'c1', { count: 10 });
    tt.same(got, ids.map((id, i) => ({ id, payload: payloads[i] })), 'entries in order with their payloads');
    tt.equal(await events.pending(s, 'writer'), 3, 'read but not acked: pending');
    tt.same(await events.read(s, 'writer', 'c1'), [], 'nothing new');
    tt.equal(await events.ack(s, 'writer', ids), 3);
    tt.equal(await events.ack(s, 'writer', ids), 0, 'acking twice counts nothing');
    tt.equal(await events.ack(s, 'writer', []), 0);
    tt.equal(await events.pending(s, 'writer'), 0);
    await tt.rejects(events.ack(s, 'writer', ['nope']), { code: 'INVALID' });
  });

  t.test('events: count limits a read', async (tt) => {
    const { events } = await open(tt);
    const s = uniq('events');
    await events.ensureGroup(s, 'g');
    for (let i = 0; i < 5; i++) await events.append(s, { i: String(i) });
    const sizes = [];
    for (let i = 0; i < 3; i++) sizes.push((await events.read(s, 'g', 'c', { count: 2 })).length);
    tt.same(sizes, [2, 2, 1]);
  });

  t.test('events: payloads round-trip exactly', async (tt) => {
    const { events } = await open(tt);
    const s = uniq('events');
    await events.ensureGroup(s, 'g');
    const payloads = [
      { a: '1', b: 'two' },
      { a: 1 },
      { $json: 'not really' },
      {},
      'text',
      42,
      null,
      true,
      [1, 'a', { b: [null] }],
      { nested: { deep: ['x'] }, emoji: 'ünïcødé ✓', empty: '' },
    ];
    for (const p of payloads) await events.append(s, p);
    const got = await events.read(s, 'g', 'c', { count: 100 });
    tt.same(got.map((e) => e.payload), payloads);
    await tt.rejects(events.append(s, { big: 1n }), { code: 'INVALID' }, 'BigInt is not JSON');
    await tt.rejects(events.append(s, undefined), { code: 'INVALID' });
  });

  t.test('events: a blocking read returns as soon as an entry is appended', async (tt) => {
    const { events } = await open(tt);
    const s = uniq('events');
    await events.ensureGroup(s, 'g');
    const started = Date.now();
    const reading = events.read(s, 'g', 'c', { blockMs: 3_000 });
    await sleep(40);
    const id = await events.append(s, { hello: 'world' });
    const got = await reading;
    const elapsed = Date.now() - started;
    tt.same(got, [{ id, payload: { hello: 'world' } }]);
    tt.ok(elapsed < 1_000, `returned after ${elapsed} ms`);
  });

  t.test('events: a blocking read times out empty without busy-looping', async (tt) => {
    const { events } = await open(tt);
    const s = uniq('events');
    await events.ensureGroup(s, 'g');
    const started = Date.now();
    const cpu = process.cpuUsage();
    const got = await events.read(s, 'g', 'c', { blockMs: 200 });
    const used = process.cpuUsage(cpu);
    const elapsed = Date.now() - started;
    tt.same(got, []);
    tt.ok(elapsed >= 190 && elapsed < 1_500, `waited ${elapsed} ms`);
    tt.ok((used.user + used.system) / 1_000 < 60, `CPU while blocked: ${((used.user + used.system) / 1_000).toFixed(1)} ms`);
  });

  t.test('events: a group created after appends sees the whole history', async (tt) => {
    const { events } = await open(tt);
    const s = uniq('events');
    const ids = [await events.append(s, { n: '1' }), await events.append(s, { n: '2' })];
    await events.ensureGroup(s, 'late');
    tt.same((await events.read(s, 'late', 'c')).map((e) => e.id), ids);
    await events.ensureGroup(s, 'late'); // idempotent: does not rewind
    tt.same(await events.read(s, 'late', 'c'), [], 'ensureGroup again does not re-deliver');
    tt.equal(await events.pending(s, 'late'), 2);
    await events.ensureGroup(s, 'other');
    tt.equal((await events.read(s, 'other', 'c')).length, 2, 'every group has its own cursor');
  });

  t.test('events: an unknown group is an error', async (tt) => {
    const { events } = await open(tt);
    const s = uniq('events');
    await events.append(s, { a: 'b' });
    await tt.rejects(events.read(s, 'missing', 'c'), { code: 'NOGROUP' });
    await tt.rejects(events.read(uniq('nostream'), 'missing', 'c', { blockMs: 10 }), { code: 'NOGROUP' });
    await tt.rejects(events.pending(s, 'missing'), { code: 'NOGROUP' });
    await tt.rejects(events.claimStale(s, 'missing', 'c', 0), { code: 'NOGROUP' });
    tt.equal(await events.ack(s, 'missing', ['1-0']), 0);
  });

  t.test('events: dropGroup removes a group with its pending entries; the others keep theirs', async (tt) => {
    const { events } = await open(tt);
    const s = uniq('events');
    await events.ensureGroup(s, 'gone');
    await events.ensureGroup(s, 'kept');
    await events.append(s, { a: 'b' });
    tt.equal((await events.read(s, 'gone', 'c')).length, 1);
    tt.equal((await events.read(s, 'kept', 'c')).length, 1);
    tt.equal(await events.dropGroup(s, 'gone'), true);
    await tt.rejects(events.pending(s, 'gone'), { code: 'NOGROUP' });
    tt.equal(await events.pending(s, 'kept'), 1, 'another group is untouched');
    tt.equal(await events.dropGroup(s, 'gone'), false, 'a second drop finds nothing');
    tt.equal(await events.dropGroup(uniq('nostream'), 'gone'), false, 'nor does a drop on a missing stream');
    await events.ensureGroup(s, 'gone');
    tt.equal((await events.read(s, 'gone', 'c')).length, 1, 'a group created again starts from the beginning');
  });

  t.test('events: crash re-delivery with claimStale', async (tt) => {
    const { events } = await open(tt);
    const s = uniq('events');
    await events.ensureGroup(s, 'exporter');
    const id = await events.append(s, { event: 'e1' });
    const readByA = await events.read(s, 'exporter', 'A');
    tt.same(readByA.map((e) => e.id), [id], 'A read it, then "crashed" without ack');
    tt.same(await events.read(s, 'exporter', 'B'), [], 'B does not get it as a new entry');
    tt.same(await events.claimStale(s, 'exporter', 'B', 60), [], 'not idle long enough yet');
    await sleep(80);
    const claimed = await events.claimStale(s, 'exporter', 'B', 60);
    tt.same(claimed, [{ id, payload: { event: 'e1' } }], 'B took it over');
    tt.equal(await events.pending(s, 'exporter'), 1, 'still pending until acked');
    tt.same(await events.claimStale(s, 'exporter', 'C', 60), [], 'claiming resets the idle time');
    tt.equal(await events.ack(s, 'exporter', [id]), 1);
    tt.equal(await events.pending(s, 'exporter'), 0);
    tt.same(await events.claimStale(s, 'exporter', 'C', 0), [], 'nothing left to claim');
  });

  t.test('events: claimStale honours count and returns oldest first', async (tt) => {
    const { events } = await open(tt);
    const s = uniq('events');
    await events.ensureGroup(s, 'g');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await events.append(s, { i: String(i) }));
    await events.read(s, 'g', 'A', { count: 5 });
    const first = await events.claimStale(s, 'g', 'B', 0, 2);
    const rest = await events.claimStale(s, 'g', 'C', 0, 10);
    tt.same(first.map((e) => e.id), ids.slice(0, 2));
    tt.same(rest.map((e) => e.id), ids, 'minIdle 0 claims everything pending, B\'s too');
  });

  t.test('events: two consumers in one group share entries without duplicates', async (tt) => {
    const { events } = await open(tt);
    const s = uniq('events');
    await events.ensureGroup(s, 'g');
    for (let i = 0; i < 20; i++) await events.append(s, { i: String(i) });
    const seen: Record<string, string[]> = { A: [], B: [] };
    for (let round = 0; round < 10; round++) {
      for (const c of ['A', 'B']) {
        const got = await events.read(s, 'g', c, { count: 3 });
        seen[c]?.push(...got.map((e) => e.id));
        if (got.length > 0) await events.ack(s, 'g', got.map((e) => e.id));
      }
    }
    const all = [...(seen.A ?? []), ...(seen.B ?? [])];
    tt.equal(all.length, 20);
    tt.equal(new Set(all).size, 20, 'no entry delivered twice');
    tt.ok((seen.A?.length ?? 0) > 0 && (seen.B?.length ?? 0) > 0, 'both consumers got work');

    // The same with both consumers blocked waiting while entries trickle in.
    const s2 = uniq('events');
    await events.ensureGroup(s2, 'g');
    const delivered: { consumer: string; entry: StreamEntry }[] = [];
    const consume = async (consumer: string): Promise<void> => {
      const deadline = Date.now() + 3_000;
      while (delivered.length < 10 && Date.now() < deadline) {
        for (const entry of await events.read(s2, 'g', consumer, { count: 1, blockMs: 100 })) {
          delivered.push({ consumer, entry });
          await events.ack(s2, 'g', [entry.id]);
        }
      }
    };
    const consumers = Promise.all([consume('A'), consume('B')]);
    for (let i = 0; i < 10; i++) {
      await events.append(s2, { i: String(i) });
      await sleep(3);
    }
    await consumers;
    tt.equal(delivered.length, 10, 'every entry delivered');
    tt.equal(new Set(delivered.map((d) => d.entry.id)).size, 10, 'no duplicates between blocked consumers');
    tt.equal(await events.pending(s2, 'g'), 0);
  });

  t.test('events: trim keeps the newest entries; trimmed pending entries are dropped on claim', async (tt) => {
    const { events } = await open(tt);
    const s = uniq('events');
    await events.ensureGroup(s, 'g');
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await events.append(s, { i: String(i) }));
    await events.read(s, 'g', 'A', { count: 10 });
    tt.equal(await events.trim(s, 4), 6);
    tt.equal(await events.trim(s, 4), 0, 'already short enough');
    tt.equal(await events.trim(uniq('missing'), 4), 0, 'missing stream');
    await events.ensureGroup(s, 'fresh');
    tt.same((await events.read(s, 'fresh', 'c', { count: 100 })).map((e) => e.id), ids.slice(6), 'the newest 4 remain');
    const claimed = await events.claimStale(s, 'g', 'B', 0);
    tt.same(claimed.map((e) => e.id), ids.slice(6), 'only entries that still exist are re-delivered');
    tt.equal(await events.pending(s, 'g'), 4, 'the trimmed ones left the pending list');
  });

  t.test('events: trimAcked removes what every group has acked, never what one still needs', async (tt) => {
    const { events } = await open(tt);
    const s = uniq('events');
    tt.equal(await events.trimAcked(uniq('missing')), 0, 'missing stream');
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await events.append(s, { i: String(i) }));
    tt.equal(await events.trimAcked(s), 0, 'no group yet: nobody has read it, nothing goes');
    await events.ensureGroup(s, 'fast');
    await events.ensureGroup(s, 'slow');
    const fast = await events.read(s, 'fast', 'f', { count: 10 });
    await events.ack(s, 'fast', fast.map((e) => e.id));
    const slow = await events.read(s, 'slow', 'w', { count: 6 });
    await events.ack(s, 'slow', slow.slice(0, 3).map((e) => e.id)); // 3 acked, 3 pending, 4 unread
    tt.equal(await events.trimAcked(s), 3, 'only what the slowest group acked');
    tt.equal(await events.pending(s, 'slow'), 3);
    const again = await events.claimStale(s, 'slow', 'w2', 0, 10);
    tt.same(again.map((e) => e.id), ids.slice(3, 6), 'the pending ones are all still there');
    await events.ack(s, 'slow', again.map((e) => e.id));
    tt.equal(await events.trimAcked(s), 3, 'once acked they go');
    const rest = await events.read(s, 'slow', 'w', { count: 10 });
    tt.same(rest.map((e) => e.id), ids.slice(6), 'the unread ones stayed');
    await events.ack(s, 'slow', rest.map((e) => e.id));
    tt.equal(await events.trimAcked(s), 4);
    tt.equal(await events.trimAcked(s), 0, 'empty');
  });

  t.test('events: append with maxLen caps the stream at about maxLen, never below', async (tt) => {
    const { events } = await open(tt);
    const s = uniq('events');
    const ids: string[] = [];
    // Redis trims whole nodes of 100 entries ("~"), so the cap shows only past a few nodes.
    for (let i = 0; i < 1000; i++) ids.push(await events.append(s, { i: String(i) }, { maxLen: 200 }));
    await events.ensureGroup(s, 'count');
    const kept = (await events.read(s, 'count', 'c', { count: 2000 })).map((e) => e.id);
    tt.ok(kept.length >= 200 && kept.length <= 400, `${kept.length} entries kept`);
    tt.same(kept, ids.slice(ids.length - kept.length), 'the newest ones, in order');
    await tt.rejects(events.append(s, { i: 'x' }, { maxLen: 0 }), { code: 'INVALID' });
  });

  t.test('lifecycle: ping, close is idempotent, use after close fails', async (tt) => {
    const s = await factory();
    await s.ping();
    const k = uniq('k');
    await s.cache.set(k, 'v');
    await s.cache.del(k);
    await s.close();
    await s.close();
    await tt.rejects(s.ping(), { code: 'CLOSED' });
    await tt.rejects(s.cache.get(k), { code: 'CLOSED' });
    await tt.rejects(s.events.append('x', { a: 'b' }), { code: 'CLOSED' });
    await tt.rejects(s.pubsub.publish('x', 'y'), { code: 'CLOSED' });
  });

  t.test('lifecycle: close ends a blocked read and releases every handle', async (tt) => {
    await sleep(50); // let sockets of earlier tests finish closing
    const baseline = liveResources();
    const s = await factory();
    const str = uniq('events');
    await s.events.ensureGroup(str, 'g');
    const off = await s.pubsub.subscribe(uniq('ch'), () => undefined);
    await s.cache.slidingWindow(uniq('rl'), 5, 1_000);
    await s.cache.set(uniq('k'), 'v', 10_000);
    const started = Date.now();
    const reading = s.events.read(str, 'g', 'c', { blockMs: 5_000 });
    const reading2 = s.events.read(str, 'g', 'd', { blockMs: 5_000 });
    await sleep(30);
    await s.close();
    tt.same(await reading, [], 'a read blocked at close resolves empty');
    tt.same(await reading2, []);
    tt.ok(Date.now() - started < 1_500, 'and does so promptly');
    await off(); // after close: harmless
    const released = await waitFor(() => liveResources() <= baseline, 2_000);
    tt.ok(released, `no handle left open (baseline ${baseline}, now ${liveResources()}: ${process.getActiveResourcesInfo().join(', ')})`);
  });
}

/**
 * The stream sources as plain ESM JavaScript in a temporary folder, so a child process can run them
 * without a TypeScript loader (which costs seconds at start-up). When this file itself runs compiled,
 * the compiled folder is used as is.
 */
async function plainJsFolder(t: Test): Promise<string> {
  const here = fileURLToPath(new URL('.', import.meta.url));
  if (!import.meta.url.endsWith('.ts')) return here;
  const ts = (await import('typescript')).default;
  const ioredis = import.meta.resolve('ioredis');
  const dir = await mkdtemp(join(tmpdir(), 'palisade-stream-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  for (const file of await readdir(here)) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts') || file.endsWith('.d.ts') || file === 'streams.contract.ts') continue;
    const { outputText } = ts.transpileModule(await readFile(join(here, file), 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    // The temporary folder is outside the workspace: point the one bare import at its resolved file.
    const js = outputText.replace(/(from\s*)(['"])ioredis\2/g, `$1${JSON.stringify(ioredis)}`);
    await writeFile(join(dir, file.replace(/\.ts$/, '.js')), js);
  }
  await writeFile(join(dir, 'package.json'), '{"type":"module"}');
  return dir;
}

/**
 * Runs a child Node process that uses a bundle (subscriber, blocking reads, timers) and closes it:
 * it must exit on its own, which proves close() leaves nothing holding the event loop.
 */
export async function childExitsAfterClose(t: Test, redisUrl: string | undefined, keyPrefix: string): Promise<void> {
  const index = pathToFileURL(join(await plainJsFolder(t), 'index.js')).href;
  const script = `
    const { createStreams } = await import(${JSON.stringify(index)});
    const s = await createStreams(process.env.CHILD_REDIS_URL || undefined, { keyPrefix: ${JSON.stringify(keyPrefix)} });
    await s.cache.set('child', 'v', 5000);
    await s.cache.slidingWindow('child', 5, 5000);
    await s.pubsub.subscribe('child', () => {});
    await s.events.ensureGroup('child', 'g');
    const reading = [s.events.read('child', 'g', 'c', { blockMs: 20000 }), s.events.read('child', 'g', 'd', { blockMs: 20000 })];
    await s.events.append('other', { a: 'b' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await s.close();
    await Promise.all(reading);
    console.log('closed');
  `;
  const env: NodeJS.ProcessEnv = { ...process.env, CHILD_REDIS_URL: redisUrl ?? '' };
  delete env.NODE_OPTIONS; // tap's coverage hooks are not needed in the child
  const started = Date.now();
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 8_000);
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  clearTimeout(timer);
  t.equal(code, 0, `child exited by itself after close(), in ${Date.now() - started} ms (output: ${output.trim()})`);
  t.match(output, /closed/);
}
