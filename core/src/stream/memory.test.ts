import t from 'tap';
import { childExitsAfterClose, streamsContract } from '../testing/streams-contract/index.js';
import { createMemoryStreams, createStreams, type StreamsClock } from './index.js';

t.test('contract: in-process', async (t) => {
  streamsContract(t, async (options) => createMemoryStreams(options ?? {}));
});

/** A clock the test moves by hand. */
function manualClock(start = 1_700_000_000_000): StreamsClock & { advance(ms: number): void } {
  let now = start;
  return { now: () => now, advance: (ms) => void (now += ms) };
}

t.test('in-process: injected clock drives TTLs, windows, ids and idle times', async (t) => {
  const clock = manualClock();
  const s = createMemoryStreams({ clock });
  t.teardown(() => s.close());

  await s.cache.set('k', 'v', 1_000);
  await s.cache.incr('n', 1, 1_000);
  clock.advance(999);
  t.equal(await s.cache.get('k'), 'v');
  clock.advance(1);
  t.equal(await s.cache.get('k'), null, 'expired exactly at the TTL');
  t.equal(await s.cache.get('n'), null);

  for (let i = 0; i < 2; i++) t.equal((await s.cache.slidingWindow('rl', 2, 60_000)).allowed, true);
  const refused = await s.cache.slidingWindow('rl', 2, 60_000);
  t.match(refused, { allowed: false, retryAfterMs: 60_000, resetAtMs: clock.now() + 60_000 });
  clock.advance(60_000);
  t.equal((await s.cache.slidingWindow('rl', 2, 60_000)).allowed, true, 'a minute later');

  const t1 = clock.now();
  t.equal(await s.events.append('s', { a: '1' }), `${t1}-0`);
  t.equal(await s.events.append('s', { a: '2' }), `${t1}-1`, 'same millisecond: sequence increments');
  clock.advance(-5_000);
  t.equal(await s.events.append('s', { a: '3' }), `${t1}-2`, 'a clock stepping back never yields a smaller id');
  clock.advance(5_001);
  t.equal(await s.events.append('s', { a: '4' }), `${t1 + 1}-0`);
  await s.events.ensureGroup('s', 'g');
  await s.events.read('s', 'g', 'A', { count: 4 });
  t.same(await s.events.claimStale('s', 'g', 'B', 30_000), []);
  clock.advance(30_000);
  t.equal((await s.events.claimStale('s', 'g', 'B', 30_000)).length, 4, 'idle time follows the clock');
});

t.test('createStreams without a URL is in-process', async (t) => {
  for (const url of [undefined, '', '  ']) {
    const s = await createStreams(url);
    t.equal(s.kind, 'memory');
    await s.close();
  }
});

t.test('in-process: the process exits after close()', async (t) => {
  await childExitsAfterClose(t, undefined, 'unused:');
});

t.test('in-process: entries the maxLen cap removes before a group read them are counted', async (t) => {
  const s = createMemoryStreams();
  t.teardown(() => s.close());
  for (let i = 0; i < 120; i++) await s.events.append('nobody', { i: String(i) }, { maxLen: 100 });
  t.equal(s.events.trimmedUnread, 11, 'no group: every removed entry was unread (the cap trims past maxLen + a tenth)');

  await s.events.ensureGroup('read', 'g');
  for (let i = 0; i < 100; i++) await s.events.append('read', { i: String(i) }, { maxLen: 100 });
  t.equal((await s.events.read('read', 'g', 'c', { count: 100 })).length, 100);
  for (let i = 0; i < 11; i++) await s.events.append('read', { i: String(i) }, { maxLen: 100 });
  t.equal(s.events.trimmedUnread, 11, 'a group had them all: nothing unread was removed');

  await s.events.ensureGroup('read', 'late');
  await s.events.read('read', 'late', 'c', { count: 5 });
  for (let i = 0; i < 11; i++) await s.events.append('read', { i: String(i) }, { maxLen: 100 });
  t.ok(s.events.trimmedUnread! > 11, 'the slowest group decides');
  await s.events.trim('read', 0);
  t.ok(s.events.trimmedUnread! < 11 + 111, 'an explicit trim is not counted');
});
