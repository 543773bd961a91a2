import t, { type Test } from 'tap';
import { setTimeout as sleep } from 'node:timers/promises';
import { SecurityEvent, type EventStream } from '@palisade/core';
import { decide } from '../decision/decide.js';
import { entity, makeProfile, pii, request, threat } from '../testing/decision.js';
import { buildSecurityEvents, EventPrompt } from './build-events.js';
import { createEventEmitter, type EventEmitter } from './emitter.js';
import { failingAppends, startRedisProxy, streamBackends, testStream } from '../testing/event-streams.js';

const profile = makeProfile({ event_logging: { log_allow_decisions: true } });

/** The events of `n` requests, each request with its own trace id. */
function requestEvents(n: number, label = 'req'): SecurityEvent[] {
  const out: SecurityEvent[] = [];
  for (let i = 0; i < n; i++) {
    const drafts = decide(request(profile, { threat: threat(i % 2 ? 0.99 : 0.1), pii: pii(entity('EMAIL', 0, 9)) })).events;
    out.push(...buildSecurityEvents(drafts, { trace_id: `${label}-${i}`, tenant_id: 'acme', source_ip: '198.51.100.4', model: 'm-1', user_prompt: new EventPrompt(`prompt ${i}`) }, { profile }));
  }
  return out;
}

/** Every entry of the stream, through a fresh consumer group (which starts at the beginning). */
async function readAll(events: EventStream, stream: string): Promise<SecurityEvent[]> {
  const group = `check-${Math.random().toString(36).slice(2, 8)}`;
  await events.ensureGroup(stream, group);
  const out: SecurityEvent[] = [];
  for (let i = 0; i < 1_000; i++) {
    const batch = await events.read(stream, group, 'checker', { count: 500 });
    if (batch.length === 0) return out;
    out.push(...batch.map((e) => SecurityEvent.parse(e.payload)));
  }
  throw new Error('stream did not end');
}

function captureLogs() {
  const lines: Array<{ level: 'info' | 'warn' | 'error'; msg: string }> = [];
  const at = (level: 'info' | 'warn' | 'error') => (_obj: unknown, msg?: string) => void lines.push({ level, msg: msg ?? '' });
  return { logger: { info: at('info'), warn: at('warn'), error: at('error') }, lines, count: (level: string) => lines.filter((l) => l.level === level).length };
}

async function until(what: string, check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

const invariant = (t: Test, emitter: EventEmitter) => {
  const s = emitter.stats;
  t.equal(s.emitted, s.appended + s.dropped + s.buffered, `emitted ${s.emitted} = appended ${s.appended} + dropped ${s.dropped} + buffered ${s.buffered}`);
};

const backends = await streamBackends();

for (const backend of backends) {
  t.test(`${backend.name}: emitted events reach the stream unchanged, with their trace ids`, { skip: backend.skipReason ?? false }, async (t) => {
    const streams = await backend.open();
    t.teardown(() => streams.close());
    const stream = testStream('roundtrip');
    const emitter = createEventEmitter({ events: streams.events, stream });
    const sent = requestEvents(20);
    emitter.emit(sent.slice(0, 30));
    for (const e of sent.slice(30)) emitter.emit(e);
    t.equal(emitter.stats.appended, 0, 'nothing is appended on the caller\'s tick');
    t.equal(await emitter.flush(), true, 'flushed');
    const got = await readAll(streams.events, stream);
    t.same(new Map(got.map((e) => [e.id, e])), new Map(sent.map((e) => [e.id, e])), 'every event, field for field, once');
    const byTrace = new Map<string, SecurityEvent[]>();
    for (const e of got) byTrace.set(e.trace_id, [...(byTrace.get(e.trace_id) ?? []), e]);
    t.equal(byTrace.size, 20, 'one trace id per request');
    for (const [, group] of byTrace) t.equal(new Set(group.map((e) => e.timestamp)).size, 1, 'the events of a request share its timestamp');
    t.match(emitter.stats, { emitted: sent.length, appended: sent.length, dropped: 0, buffered: 0, failures: 0, degraded: false });
    await emitter.close();
    await streams.events.trim(stream, 0);
  });

  t.test(`${backend.name}: the stream is capped at about streamMaxLen, keeping the newest`, { skip: backend.skipReason ?? false }, async (t) => {
    const streams = await backend.open();
    t.teardown(() => streams.close());
    const stream = testStream('capped');
    const emitter = createEventEmitter({ events: streams.events, stream, streamMaxLen: 200 });
    const sent = requestEvents(500); // two events per request
    emitter.emit(sent);
    t.equal(await emitter.flush(), true);
    const got = await readAll(streams.events, stream);
    t.ok(got.length >= 200 && got.length <= 400, `${got.length} of ${sent.length} kept`);
    t.same(got.map((e) => e.id), sent.slice(sent.length - got.length).map((e) => e.id), 'the newest ones');
    await emitter.close();
    await streams.events.trim(stream, 0);
  });
}

t.test('appends run after the caller\'s tick, a bounded number at a time', async (t) => {
  const streams = (await backends[0]!.open());
  t.teardown(() => streams.close());
  const { events, state } = failingAppends(streams.events);
  const stream = testStream('batching');
  const emitter = createEventEmitter({ events, stream, concurrency: 4 });
  const sent = requestEvents(100);
  for (const e of sent) emitter.emit(e);
  t.equal(state.calls, 0, 'emit() does not call the stream');
  t.equal(emitter.stats.buffered, sent.length);
  t.equal(await emitter.flush(), true);
  t.equal(state.calls, sent.length, 'one append per event');
  t.ok(state.maxInFlight > 1 && state.maxInFlight <= 4, `concurrent, at most 4 in flight (saw ${state.maxInFlight})`);
  t.equal((await readAll(streams.events, stream)).length, sent.length);
});

t.test('in-process stream failing appends: buffered, logged once, retried, nothing lost or duplicated', async (t) => {
  // The in-process stream cannot go down without losing its contents, so a wrapper fails its appends.
  const streams = await backends[0]!.open();
  t.teardown(() => streams.close());
  const { events, state } = failingAppends(streams.events);
  const logs = captureLogs();
  const stream = testStream('outage');
  const emitter = createEventEmitter({ events, stream, logger: logs.logger, retryInitialMs: 10, retryMaxMs: 40 });

  state.down = true;
  const sent = requestEvents(30);
  for (let i = 0; i < sent.length; i += 10) {
    t.doesNotThrow(() => emitter.emit(sent.slice(i, i + 10)));
    await sleep(5);
  }
  await until('several retries', () => emitter.stats.failures >= 5);
  t.match(emitter.stats, { emitted: sent.length, appended: 0, dropped: 0, buffered: sent.length, degraded: true });
  t.equal(logs.count('warn'), 1, 'the outage is logged once');
  t.equal(logs.count('error'), 0);
  const attempts = state.calls;
  await sleep(100);
  t.ok(state.calls - attempts < 12, `retries back off (${state.calls - attempts} attempts in 100 ms with a 40 ms cap)`);

  state.down = false;
  t.equal(await emitter.flush(3_000), true, 'flushed once the stream is back');
  t.match(emitter.stats, { appended: sent.length, dropped: 0, buffered: 0, degraded: false });
  t.equal(logs.count('info'), 1, 'the recovery is logged once');
  const got = await readAll(streams.events, stream);
  t.equal(got.length, sent.length, 'no duplicates');
  t.same(new Set(got.map((e) => e.id)), new Set(sent.map((e) => e.id)), 'nothing lost');
  invariant(t, emitter);
  await emitter.close();
});

t.test('a full buffer drops the newest events, counts them and says so once', async (t) => {
  const streams = await backends[0]!.open();
  t.teardown(() => streams.close());
  const { events, state } = failingAppends(streams.events);
  const logs = captureLogs();
  const stream = testStream('overflow');
  const emitter = createEventEmitter({ events, stream, logger: logs.logger, maxBuffer: 20, retryInitialMs: 10, retryMaxMs: 20 });
  state.down = true;
  const sent = requestEvents(15);
  t.ok(sent.length > 30);
  emitter.emit(sent);
  t.match(emitter.stats, { emitted: sent.length, dropped: sent.length - 20, buffered: 20 });
  emitter.emit(sent[0]!);
  t.equal(emitter.stats.dropped, sent.length - 19);
  t.equal(logs.count('error'), 1, 'one line for the episode');
  invariant(t, emitter);
  state.down = false;
  t.equal(await emitter.flush(3_000), true);
  const got = await readAll(streams.events, stream);
  t.same(got.map((e) => e.id), sent.slice(0, 20).map((e) => e.id), 'the oldest 20 are kept, in order');
  invariant(t, emitter);
});

t.test('emitLater builds off the caller\'s tick; a throwing builder is counted, not thrown', async (t) => {
  const streams = await backends[0]!.open();
  t.teardown(() => streams.close());
  const logs = captureLogs();
  const stream = testStream('later');
  const emitter = createEventEmitter({ events: streams.events, stream, logger: logs.logger });
  const drafts = decide(request(profile, { threat: threat(0.99) })).events;
  const now = new Date();
  let built = 0;
  emitter.emitLater(() => {
    built++;
    return buildSecurityEvents(drafts, { trace_id: 'later-1', tenant_id: 'acme' }, { now });
  });
  emitter.emitLater(() => {
    throw new Error('bad draft');
  });
  emitter.emitLater(() => []);
  t.equal(built, 0, 'nothing is built on the caller\'s tick');
  t.equal(await emitter.flush(), true);
  t.equal(built, 1);
  const got = await readAll(streams.events, stream);
  t.same(got.map((e) => [e.event_type, e.trace_id, e.timestamp]), drafts.map((d) => [d.event_type, 'later-1', now.toISOString()]));
  t.match(emitter.stats, { emitted: drafts.length, appended: drafts.length, buildErrors: 1 });
  t.equal(logs.count('error'), 1);
});

t.test('close() flushes, later events are dropped and counted; with the stream down it gives up after its timeout', async (t) => {
  const streams = await backends[0]!.open();
  t.teardown(() => streams.close());
  const { events, state } = failingAppends(streams.events);
  const logs = captureLogs();
  const stream = testStream('close');
  const emitter = createEventEmitter({ events, stream, logger: logs.logger });
  const sent = requestEvents(5);
  emitter.emit(sent);
  await emitter.close();
  t.match(emitter.stats, { appended: sent.length, buffered: 0, dropped: 0 }, 'close() flushed');
  t.doesNotThrow(() => emitter.emit(sent[0]!));
  t.doesNotThrow(() => emitter.emitLater(() => sent[0]!));
  t.match(emitter.stats, { dropped: 2 });

  const down = createEventEmitter({ events, stream, logger: logs.logger, retryInitialMs: 10 });
  state.down = true;
  const stuck = requestEvents(3);
  down.emit(stuck);
  await until('a failure', () => down.stats.failures > 0);
  const started = Date.now();
  await down.close(150);
  const took = Date.now() - started;
  t.ok(took >= 140 && took < 1_500, `close gave up after ${took} ms`);
  t.match(down.stats, { appended: 0, buffered: 0, dropped: stuck.length });
  t.ok(logs.lines.some((l) => l.level === 'error' && l.msg.includes(`closed with ${stuck.length} security events not appended`)));
  invariant(t, down);
});

t.test('emit never throws, even on a closed stream bundle', async (t) => {
  const streams = await backends[0]!.open();
  await streams.close();
  const emitter = createEventEmitter({ events: streams.events, stream: testStream('closed'), retryInitialMs: 5 });
  const sent = requestEvents(2);
  t.doesNotThrow(() => emitter.emit(sent));
  await until('a failure', () => emitter.stats.failures > 0);
  t.match(emitter.stats, { buffered: sent.length, appended: 0, degraded: true });
  await emitter.close(20);
  t.match(emitter.stats, { buffered: 0, dropped: sent.length });
});

const redis = backends.find((b) => b.name === 'redis')!;
t.test('Redis outage (connection cut by a proxy): buffered, then delivered once Redis is back', { skip: redis.skipReason ?? false }, async (t) => {
  const proxy = await startRedisProxy();
  t.teardown(() => proxy.close());
  const viaProxy = await redis.open(proxy.url);
  t.teardown(() => viaProxy.close());
  const direct = await redis.open();
  t.teardown(() => direct.close());
  const logs = captureLogs();
  const stream = testStream('redis-outage');
  const emitter = createEventEmitter({ events: viaProxy.events, stream, logger: logs.logger, retryInitialMs: 20, retryMaxMs: 200 });

  const before = requestEvents(3, 'before');
  emitter.emit(before);
  t.equal(await emitter.flush(), true);

  await proxy.cut();
  const during = requestEvents(10, 'during');
  for (const e of during) t.doesNotThrow(() => emitter.emit(e));
  await until('the outage to be noticed', () => emitter.stats.degraded);
  await sleep(300);
  t.match(emitter.stats, { buffered: during.length, dropped: 0 }, 'held while Redis is unreachable');
  t.equal(logs.count('warn'), 1, 'logged once');

  await proxy.restore();
  t.equal(await emitter.flush(10_000), true, 'delivered after the reconnect');
  const got = await readAll(direct.events, stream);
  t.equal(got.length, before.length + during.length, 'nothing duplicated');
  t.same(new Set(got.map((e) => e.id)), new Set([...before, ...during].map((e) => e.id)), 'nothing lost');
  t.match(emitter.stats, { degraded: false, buffered: 0 });
  await emitter.close();
  await direct.events.trim(stream, 0);
});

t.test('cost of emit() on the request path (printed)', async (t) => {
  const streams = await backends[0]!.open();
  t.teardown(() => streams.close());
  const emitter = createEventEmitter({ events: streams.events, stream: testStream('speed'), maxBuffer: 1_000_000 });
  const perRequest = requestEvents(1);
  const rounds = 2_000;
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = process.hrtime.bigint();
    emitter.emit(perRequest);
    samples.push(Number(process.hrtime.bigint() - started) / 1_000);
    if (i % 20 === 19) await new Promise((r) => setImmediate(r)); // let the background appends run, as between requests
  }
  samples.sort((a, b) => a - b);
  const warm = samples.slice(0, Math.floor(rounds * 0.99));
  const mean = warm.reduce((a, b) => a + b, 0) / warm.length;
  const p50 = samples[Math.floor(rounds / 2)]!;
  const p99 = samples[Math.floor(rounds * 0.99)]!;
  t.comment(`emit() of one request's ${perRequest.length} events: p50 ${p50.toFixed(2)} µs, mean (to p99) ${mean.toFixed(2)} µs, p99 ${p99.toFixed(2)} µs`);

  const later: number[] = [];
  const drafts = decide(request(profile, { threat: threat(0.99) })).events;
  for (let i = 0; i < rounds; i++) {
    const now = new Date();
    const started = process.hrtime.bigint();
    emitter.emitLater(() => buildSecurityEvents(drafts, { trace_id: `t-${i}`, tenant_id: 'acme' }, { now }));
    later.push(Number(process.hrtime.bigint() - started) / 1_000);
    if (i % 20 === 19) await new Promise((r) => setImmediate(r));
  }
  later.sort((a, b) => a - b);
  t.comment(`emitLater(): p50 ${later[rounds / 2]!.toFixed(2)} µs, p99 ${later[Math.floor(rounds * 0.99)]!.toFixed(2)} µs`);
  t.equal(await emitter.flush(10_000), true);
  t.equal(emitter.stats.appended, emitter.stats.emitted);
});
