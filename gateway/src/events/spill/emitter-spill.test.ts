import t, { type Test } from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createMemoryStreams, SecurityEvent, type EventStream } from '@palisade/core';
import { buildSecurityEvents } from '../build-events.js';
import { createEventEmitter, type EventEmitter } from '../emitter.js';
import { failingAppends, testStream } from '../../testing/event-streams.js';
import { openEventSpill } from './spill.js';

/** Two events per request (PII_DETECTED and REQUEST_SANITIZED, which can never be suppressed), trace ids `<label>-<i>`. */
function requestEvents(n: number, label: string): SecurityEvent[] {
  return Array.from({ length: n }, (_, i) =>
    buildSecurityEvents([{ event_type: 'PII_DETECTED' }, { event_type: 'REQUEST_SANITIZED' }], { trace_id: `${label}-${i}`, tenant_id: 'acme' }),
  ).flat();
}

async function readAll(events: EventStream, stream: string): Promise<SecurityEvent[]> {
  const group = `check-${Math.random().toString(36).slice(2, 8)}`;
  await events.ensureGroup(stream, group);
  const out: SecurityEvent[] = [];
  for (let batch = await events.read(stream, group, 'c', { count: 500 }); batch.length > 0; batch = await events.read(stream, group, 'c', { count: 500 })) {
    out.push(...batch.map((e) => SecurityEvent.parse(e.payload)));
  }
  return out;
}

function captureLogs() {
  const lines: Array<{ level: string; obj: Record<string, unknown>; msg: string }> = [];
  const at = (level: string) => (obj: object, msg?: string) => void lines.push({ level, obj: obj as Record<string, unknown>, msg: msg ?? '' });
  return { logger: { info: at('info'), warn: at('warn'), error: at('error') }, lines };
}

async function until(what: string, check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

function setup(t: Test, dir?: string) {
  const spillDir = dir ?? mkdtempSync(join(tmpdir(), 'emitter-spill-'));
  if (dir === undefined) t.teardown(() => rmSync(spillDir, { recursive: true, force: true }));
  return spillDir;
}

const invariant = (t: Test, emitter: EventEmitter) => {
  const s = emitter.stats;
  t.equal(s.emitted, s.appended - s.replayed + s.spilled + s.dropped + s.buffered, `emitted ${s.emitted} = appended ${s.appended} − replayed ${s.replayed} + spilled ${s.spilled} + dropped ${s.dropped} + buffered ${s.buffered}`);
};

t.test('stream down: events go to disk, not memory; back up: replayed in emit order, then direct again', async (t) => {
  const streams = createMemoryStreams();
  t.teardown(() => streams.close());
  const { events, state } = failingAppends(streams.events);
  const logs = captureLogs();
  const stream = testStream('spill');
  const dir = setup(t);
  const spill = openEventSpill({ dir, maxBytes: 8 * 1024 * 1024, logger: logs.logger });
  const emitter = createEventEmitter({ events, stream, logger: logs.logger, spill, retryInitialMs: 10, retryMaxMs: 40, replayBatch: 16 });

  const before = requestEvents(10, 'before');
  emitter.emit(before);
  t.equal(await emitter.flush(), true);
  state.down = true;
  const during = requestEvents(500, 'during');
  for (let i = 0; i < during.length; i += 50) {
    emitter.emit(during.slice(i, i + 50));
    await sleep(2);
  }
  await until('everything on disk', () => emitter.stats.spilled === during.length);
  t.match(emitter.stats, { buffered: 0, dropped: 0, degraded: true }, 'nothing held in memory during the outage');
  t.ok(emitter.stats.spillBytes > 0);
  t.match(logs.lines, [{ level: 'warn', msg: /spilling security events to disk/ }]);

  state.down = false;
  const after = requestEvents(20, 'after');
  emitter.emit(after); // while the replay runs: queued behind the spill
  t.equal(await emitter.flush(5_000), true, 'flushed once the stream is back');
  t.match(emitter.stats, { replayed: during.length + after.length, dropped: 0, buffered: 0, degraded: false, spillBytes: 0 });
  t.match(logs.lines, [{ level: 'warn' }, { level: 'info', msg: /replaying the spilled/ }]);
  const got = (await readAll(streams.events, stream)).map((e) => e.id);
  const ids = (list: SecurityEvent[]) => list.map((e) => e.id);
  t.equal(got.length, before.length + during.length + after.length, 'every event once');
  t.same(got.slice(0, before.length), ids(before));
  t.same(new Set(got.slice(before.length, -after.length)), new Set(ids(during)), 'the outage\'s events, then');
  t.same(got.slice(-after.length), ids(after), 'the events emitted during the replay, after it');
  // The appends in flight when the outage began (concurrency: 16) are retried after those queued behind them.
  const firstTries = new Set(ids(during.slice(0, 16)));
  t.same(got.filter((id) => !firstTries.has(id)).slice(before.length, -after.length), ids(during.slice(16)), 'the rest in the order emitted');
  const direct = requestEvents(5, 'direct');
  emitter.emit(direct);
  t.equal(await emitter.flush(), true);
  t.equal(emitter.stats.spilled, during.length + after.length, 'after the replay, events go straight to the stream again');
  invariant(t, emitter);
  await emitter.close();
});

t.test('a full spill drops, counts and says so at ERROR with how many', async (t) => {
  const streams = createMemoryStreams();
  t.teardown(() => streams.close());
  const { events, state } = failingAppends(streams.events);
  const logs = captureLogs();
  const stream = testStream('spill-full');
  const spill = openEventSpill({ dir: setup(t), maxBytes: 64 * 1024, logger: logs.logger });
  const emitter = createEventEmitter({ events, stream, logger: logs.logger, spill, retryInitialMs: 10, retryMaxMs: 20 });
  state.down = true;
  const sent = requestEvents(200, 'full');
  for (let i = 0; i < sent.length; i += 20) {
    emitter.emit(sent.slice(i, i + 20));
    await sleep(1);
  }
  await until('all handled', () => emitter.stats.spilled + emitter.stats.dropped === sent.length);
  const { spilled, dropped } = emitter.stats;
  t.ok(spilled > 0 && dropped > 0, `some spilled (${spilled}), the rest dropped (${dropped})`);
  t.ok(emitter.stats.spillBytes <= 64 * 1024);
  const errors = logs.lines.filter((l) => l.level === 'error');
  t.equal(errors.length, 1, 'one line when the episode starts');
  t.match(errors[0], { msg: /spill journal is full/ });

  state.down = false;
  t.equal(await emitter.flush(5_000), true);
  emitter.emit(requestEvents(1, 'later'));
  t.equal(await emitter.flush(5_000), true);
  const end = logs.lines.filter((l) => l.level === 'error')[1];
  t.match(end, { msg: `${dropped} security events were dropped while the event spill journal was full`, obj: { dropped } }, 'the end of the episode says how many');
  t.equal((await readAll(streams.events, stream)).length, spilled + 2, 'what fit was delivered');
  invariant(t, emitter);
  await emitter.close();
});

t.test('a memory buffer that fills while the stream is slow overflows to the spill, in order, nothing dropped', async (t) => {
  const streams = createMemoryStreams();
  t.teardown(() => streams.close());
  const stream = testStream('slow');
  // A stream that takes 20 ms per append: healthy but slower than the gateway.
  const slow: EventStream = { ...streams.events, append: async (...a) => (await sleep(20), streams.events.append(...a)) };
  const spill = openEventSpill({ dir: setup(t), maxBytes: 8 * 1024 * 1024 });
  const emitter = createEventEmitter({ events: slow, stream, spill, maxBuffer: 20, concurrency: 4 });
  const sent = requestEvents(100, 'slow');
  emitter.emit(sent);
  await new Promise((resolve) => setImmediate(resolve));
  t.match(emitter.stats, { buffered: 20, spilled: sent.length - 20 }, 'the memory buffer holds 20, the rest is on disk');
  t.equal(await emitter.flush(10_000), true);
  t.match(emitter.stats, { dropped: 0, spilled: sent.length - 20, replayed: sent.length - 20 });
  t.same((await readAll(streams.events, stream)).map((e) => e.id), sent.map((e) => e.id), 'in order');
  await emitter.close();
});

t.test('a gateway stopped during an outage leaves its events on disk; the next one replays them before anything else', async (t) => {
  const streams = createMemoryStreams();
  t.teardown(() => streams.close());
  const stream = testStream('restart');
  const dir = setup(t);
  const { events, state } = failingAppends(streams.events);
  const logs = captureLogs();
  const first = createEventEmitter({ events, stream, logger: logs.logger, spill: openEventSpill({ dir, maxBytes: 8 * 1024 * 1024 }), retryInitialMs: 10 });
  const queued = requestEvents(50, 'queued');
  first.emit(queued.slice(0, 2));
  state.down = true;
  const lost = requestEvents(300, 'outage');
  first.emit(lost);
  await first.close(1_000);
  t.match(first.stats, { dropped: 0, appended: 0 });
  t.match(logs.lines.at(-1), { level: 'warn', msg: /closed with security events in the spill journal/ });

  state.down = false;
  const second = createEventEmitter({ events, stream, spill: openEventSpill({ dir, maxBytes: 8 * 1024 * 1024 }) });
  const fresh = requestEvents(3, 'fresh');
  second.emit(fresh);
  t.equal(await second.flush(5_000), true, 'the journal is replayed at start, without waiting for an event');
  const got = (await readAll(streams.events, stream)).map((e) => e.id);
  t.same(new Set(got.slice(0, -fresh.length)), new Set([...queued.slice(0, 2), ...lost].map((e) => e.id)), 'the previous run\'s events first');
  t.equal(got.length, 2 + lost.length + fresh.length, 'each once');
  t.same(got.slice(-fresh.length), fresh.map((e) => e.id), 'then the new ones');
  t.equal(second.stats.replayed, queued.slice(0, 2).length + lost.length + fresh.length);
  await second.close();
});
