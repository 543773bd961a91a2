import t from 'tap';
import { setTimeout as sleep } from 'node:timers/promises';
import { connectPostgres, createEventRepository, createSecurityEvent, type Database, type EventStream, type SecurityEvent } from '@palisade/core';
import { forEachDatabase, testPostgresUrl } from '@palisade/core/testing';
import { parseBatch } from './batch.js';
import { deadLetterStream } from './dead-letter.js';
import { captureLogs, gatewayEvents, heldInserts, storedEvents, streamBackends, testStream, until } from '../testing/event-writer.js';
import { createEventWriter, EVENT_WRITER_GROUP, type EventWriterOptions } from './writer.js';

const backends = await streamBackends();

async function appendAll(events: EventStream, stream: string, payloads: readonly unknown[]): Promise<void> {
  for (let i = 0; i < payloads.length; i += 50) await Promise.all(payloads.slice(i, i + 50).map((p) => events.append(stream, p)));
}

async function drainAll(writer: { drainOnce(): Promise<number> }): Promise<number> {
  let total = 0;
  for (let i = 0; i < 10_000; i++) {
    const n = await writer.drainOnce();
    if (n === 0) return total;
    total += n;
  }
  throw new Error('the stream did not drain');
}

const count = async (db: Database, label: string) => (await storedEvents(db, label)).size;

const WRITER_APPLICATION = 'palisade-writer-under-test';

/** The URL of the test's PostgreSQL database, for a pool whose connections carry `application` as their name. */
async function ownPoolUrl(db: Database, application: string): Promise<string> {
  const { rows } = await db.query<{ name: string }>('SELECT current_database() AS name');
  return testPostgresUrl(rows[0]!.name, { application_name: application });
}

async function readDeadLetters(events: EventStream, stream: string): Promise<Array<Record<string, string>>> {
  const target = deadLetterStream(stream);
  await events.ensureGroup(target, 'check');
  return (await events.read(target, 'check', 'checker', { count: 100 })).map((e) => e.payload as Record<string, string>);
}

t.test('event writer', async (t) => {
  await forEachDatabase(t, async (t, db) => {
    for (const backend of backends) {
      await t.test(backend.name, { skip: backend.skipReason ?? false }, async (t) => {
        const streams = await backend.open();
        t.teardown(() => streams.close());
        const { events } = streams;
        const used: string[] = [];
        const newStream = (label: string) => {
          const s = testStream(label);
          used.push(s, deadLetterStream(s));
          return s;
        };
        t.teardown(async () => {
          for (const s of used) await events.trim(s, 0).catch(() => undefined); // leave nothing behind in Redis
        });
        const writerFor = (stream: string, extra: Partial<EventWriterOptions> = {}) =>
          createEventWriter({ db, events, stream, blockMs: 50, retryInitialMs: 20, retryMaxMs: 100, ...extra });

        await t.test('emitted events arrive in PostgreSQL field for field, in batches of batchSize', async (t) => {
          const stream = newStream('roundtrip');
          const label = `rt-${backend.name}`;
          const sent = gatewayEvents(130, label);
          await appendAll(events, stream, sent.slice(0, 70));
          const writer = writerFor(stream, { batchSize: 50 });
          await writer.start();
          await appendAll(events, stream, sent.slice(70)); // arrive while the writer waits on the stream
          await until('every event stored', async () => (await count(db, label)) === sent.length);
          await writer.stop();

          const stored = await storedEvents(db, label);
          t.same(stored, new Map(sent.map((e) => [e.id, e])), 'the stored records equal the emitted ones');
          const trace = sent[0]!.trace_id;
          const byTrace = await createEventRepository<SecurityEvent>(db).list({ trace_id: trace });
          t.same(byTrace.items.map((e) => e.id).sort(), sent.filter((e) => e.trace_id === trace).map((e) => e.id).sort(), 'listed by trace id');
          t.ok(writer.stats.batches >= 3, `${writer.stats.batches} batches of at most 50`);
          t.match(writer.stats, { written: sent.length, acked: sent.length, failures: 0, deadLettered: 0, running: false });
          t.equal(await events.pending(stream, EVENT_WRITER_GROUP), 0, 'everything acked');
        });

        await t.test('a writer that read and died: another one claims its entries and stores each once', async (t) => {
          const stream = newStream('crash');
          const label = `crash-${backend.name}`;
          const sent = gatewayEvents(40, label);
          await appendAll(events, stream, sent);
          await events.ensureGroup(stream, EVENT_WRITER_GROUP);
          const taken = await events.read(stream, EVENT_WRITER_GROUP, 'crashed-writer', { count: 25 });
          t.equal(taken.length, 25, 'the dead writer took 25 entries and never acked them');

          const writer = writerFor(stream, { consumer: 'survivor', claimIdleMs: 100 });
          await writer.start();
          await until('every event stored', async () => (await count(db, label)) === sent.length);
          await writer.stop();
          t.equal(writer.stats.claimed, 25, 'the dead writer\'s entries were claimed');
          t.same([...(await storedEvents(db, label)).keys()].sort(), sent.map((e) => e.id).sort(), 'each event once');
          t.equal(await events.pending(stream, EVENT_WRITER_GROUP), 0);
        });

        await t.test('a writer stuck between read and ack: the batch is claimed by another; the late one stores no duplicate', async (t) => {
          const stream = newStream('stuck');
          const label = `stuck-${backend.name}`;
          const sent = gatewayEvents(30, label);
          const stuck = heldInserts(db);
          stuck.hold();
          const a = writerFor(stream, { db: stuck.db, consumer: 'writer-a' });
          await a.start();
          await appendAll(events, stream, sent);
          await until('writer A to hold a batch in its INSERT', () => stuck.state.waiting > 0);
          t.equal(await count(db, label), 0, 'nothing stored yet');

          const b = writerFor(stream, { consumer: 'writer-b', claimIdleMs: 100 });
          await until('writer B to store what A holds', async () => {
            await b.drainOnce();
            return (await count(db, label)) === sent.length;
          });
          t.ok(b.stats.claimed > 0, `B claimed ${b.stats.claimed} entries from A`);

          stuck.release(); // A wakes up and inserts its batch again
          await until('writer A to finish its batch', () => a.stats.batches > 0);
          await a.stop();
          t.equal(a.stats.failures, 0, 'the redelivered rows did not fail A\'s batch');
          t.same([...(await storedEvents(db, label)).keys()].sort(), sent.map((e) => e.id).sort(), 'each event exactly once');
          t.equal(await events.pending(stream, EVENT_WRITER_GROUP), 0);
        });

        await t.test('the database unavailable for a while: nothing acked meanwhile, nothing lost or duplicated after', async (t) => {
          const stream = newStream('dbdown');
          const label = `down-${backend.name}`;
          const sent = gatewayEvents(35, label);
          const logs = captureLogs();
          const writer = writerFor(stream, { logger: logs.logger, batchSize: 20 });
          await writer.start();
          await appendAll(events, stream, sent.slice(0, 10));
          await until('the first events stored', async () => (await count(db, label)) === 10);
          await writer.stop(); // so that the next read takes a full batch of 20 at once

          // A real failure of the real database: the table is gone while renamed.
          await db.exec('ALTER TABLE security_events RENAME TO security_events_away');
          let renamed = true;
          t.teardown(async () => {
            if (renamed) await db.exec('ALTER TABLE security_events_away RENAME TO security_events');
          });
          await appendAll(events, stream, sent.slice(10));
          await writer.start();
          await until('several failed attempts', () => writer.stats.failures >= 3);
          t.equal(await events.pending(stream, EVENT_WRITER_GROUP), 20, 'the batch it cannot store stays pending');
          t.match(writer.stats, { degraded: true, lastError: /security_events/ });
          t.equal(logs.count('warn'), 1, 'the outage is logged once');

          await db.exec('ALTER TABLE security_events_away RENAME TO security_events');
          renamed = false;
          await until('every event stored', async () => (await count(db, label)) === sent.length);
          await until('everything acked', async () => (await events.pending(stream, EVENT_WRITER_GROUP)) === 0);
          await writer.stop();
          t.same([...(await storedEvents(db, label)).keys()].sort(), sent.map((e) => e.id).sort(), 'each event once');
          t.match(writer.stats, { degraded: false, acked: sent.length });
          t.equal(logs.count('info'), 1, 'the recovery is logged once');
        });

        await t.test('PostgreSQL connections killed under the writer: it reconnects and loses nothing', { skip: db.kind === 'postgres' ? false : 'PGlite has no connections' }, async (t) => {
          const stream = newStream('killed');
          const label = `kill-${backend.name}`;
          const sent = gatewayEvents(30, label);
          // The writer has a pool of its own, named, and only its connections are killed: killing the
          // test's own idle ones too made the test's next query fail on a connection whose end its pool
          // had not yet heard of.
          const writerDb = await connectPostgres({ url: await ownPoolUrl(db, WRITER_APPLICATION), poolSize: 3 });
          const writer = writerFor(stream, { db: writerDb, batchSize: 5 });
          t.teardown(async () => {
            await writer.stop(); // already stopped unless an assertion threw
            await writerDb.close();
          });
          await writer.start();
          // Each round waits for a connection the writer opened since the last kill (a killed backend can
          // stay listed for a moment while it exits), then kills the writer's connections.
          const killedPids = new Set<number>();
          const newWriterPids = async () =>
            (await db.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [WRITER_APPLICATION])).rows
              .map((r) => r.pid)
              .filter((pid) => !killedPids.has(pid));
          for (let i = 0; i < sent.length; i += 10) {
            await appendAll(events, stream, sent.slice(i, i + 10));
            await until('the writer to have a connection to kill', async () => (await newWriterPids()).length > 0);
            for (const pid of await newWriterPids()) {
              await db.query('SELECT pg_terminate_backend($1)', [pid]);
              killedPids.add(pid);
            }
          }
          const killed = killedPids.size;
          t.ok(killed >= 3, `${killed} of the writer's connections killed, in three rounds`);
          await until('every event stored', async () => (await count(db, label)) === sent.length);
          await until('everything acked', async () => (await events.pending(stream, EVENT_WRITER_GROUP)) === 0);
          await writer.stop();
          t.same([...(await storedEvents(db, label)).keys()].sort(), sent.map((e) => e.id).sort(), 'each event once');
          t.comment(`${writer.stats.failures} failed attempts while connections were killed`);
        });

        await t.test('entries that are not security events go to the dead-letter stream and block nothing', async (t) => {
          const stream = newStream('invalid');
          const label = `inv-${backend.name}`;
          const good = gatewayEvents(10, label);
          const future = { ...gatewayEvents(1, label)[0]!, event_type: 'TYPE_FROM_A_NEWER_GATEWAY' };
          await appendAll(events, stream, good.slice(0, 5));
          await events.append(stream, { foo: 'bar' });
          await events.append(stream, 'just a string');
          await events.append(stream, future);
          await appendAll(events, stream, good.slice(5));

          const logs = captureLogs();
          const writer = writerFor(stream, { logger: logs.logger });
          t.equal(await drainAll(writer), 13, 'every entry handled');
          t.same([...(await storedEvents(db, label)).keys()].sort(), good.map((e) => e.id).sort(), 'the valid events are stored');
          t.equal(await events.pending(stream, EVENT_WRITER_GROUP), 0, 'the invalid ones are acked too');
          t.equal(writer.stats.deadLettered, 3);
          const dead = await readDeadLetters(events, stream);
          t.equal(dead.length, 3);
          t.same(dead.map((d) => JSON.parse(d.payload!)), [{ foo: 'bar' }, 'just a string', future], 'the payloads are kept as they were');
          t.match(dead[2], { source_stream: stream, entry_id: /^\d+-\d+$/, reason: /event_type/ });
          t.ok(logs.count('warn') >= 1, 'logged');
        });

        await t.test('rows PostgreSQL would refuse: unstorable characters replaced, a refused row dead-lettered, the rest stored', async (t) => {
          const stream = newStream('refused');
          const label = `ref-${backend.name}`;
          const [nul, surrogate, refused, ...rest] = gatewayEvents(8, label);
          nul!.user_prompt = 'before\u0000after';
          nul!.reasons = ['a\u0000b'];
          surrogate!.user_prompt = 'lone \ud800 surrogate, pair \ud83d\ude00 kept';
          refused!.tenant_id = 'refused-tenant';
          // A constraint stands for any row the database refuses (class 23); it goes after the test.
          await db.exec(`ALTER TABLE security_events ADD CONSTRAINT test_refuse CHECK (tenant_id <> 'refused-tenant')`);
          t.teardown(() => db.exec('ALTER TABLE security_events DROP CONSTRAINT IF EXISTS test_refuse'));
          await appendAll(events, stream, [nul, surrogate, refused, ...rest]);

          const writer = writerFor(stream);
          t.equal(await drainAll(writer), 8);
          const stored = await storedEvents(db, label);
          t.equal(stored.size, 7, 'everything but the refused row');
          t.equal(stored.get(nul!.id)?.user_prompt, 'before\ufffdafter');
          t.same(stored.get(nul!.id)?.reasons, ['a\ufffdb']);
          t.equal(stored.get(surrogate!.id)?.user_prompt, 'lone \ufffd surrogate, pair \ud83d\ude00 kept');
          t.notOk(stored.has(refused!.id));
          const dead = await readDeadLetters(events, stream);
          t.equal(dead.length, 1);
          t.match(dead[0], { reason: /refused by the database: .*test_refuse/ });
          t.equal(JSON.parse(dead[0]!.payload!).id, refused!.id);
          t.equal(await events.pending(stream, EVENT_WRITER_GROUP), 0);
        });

        await t.test('a redelivered event (already stored, or twice in one batch) does not fail the batch', async (t) => {
          const stream = newStream('dup');
          const label = `dup-${backend.name}`;
          const [first, second] = gatewayEvents(2, label);
          await createEventRepository<SecurityEvent>(db).insert(first!);
          await appendAll(events, stream, [first, second, second]);
          const writer = writerFor(stream);
          t.equal(await drainAll(writer), 3);
          t.equal(await count(db, label), 2);
          t.match(writer.stats, { failures: 0, acked: 3, written: 2 });
          t.equal(await events.pending(stream, EVENT_WRITER_GROUP), 0);
        });

        await t.test('stop() lets the batch in progress finish and ack', async (t) => {
          const stream = newStream('stop');
          const label = `stop-${backend.name}`;
          const sent = gatewayEvents(20, label);
          const slow = heldInserts(db);
          slow.hold();
          // Appended before the writer starts, so its first read takes all of them: appended while it
          // waits on the stream, the first XADD can wake it with part of them, and the rest is left unread.
          await appendAll(events, stream, sent);
          const writer = writerFor(stream, { db: slow.db });
          await writer.start();
          await until('a batch in its INSERT', () => slow.state.waiting > 0);
          let stopped = false;
          const stopping = writer.stop().then(() => (stopped = true));
          await sleep(100);
          t.notOk(stopped, 'stop() waits for the batch');
          slow.release();
          await stopping;
          t.equal(await count(db, label), sent.length);
          t.equal(await events.pending(stream, EVENT_WRITER_GROUP), 0, 'acked before stopping');
        });

        await t.test('throughput (printed)', async (t) => {
          const stream = newStream('speed');
          const label = `speed-${backend.name}`;
          const n = 3_000;
          await appendAll(events, stream, gatewayEvents(n, label));
          const writer = writerFor(stream, { batchSize: 500 });
          const started = process.hrtime.bigint();
          t.equal(await drainAll(writer), n);
          const seconds = Number(process.hrtime.bigint() - started) / 1e9;
          t.comment(`event writer on ${db.kind} + ${backend.name} stream: ${n} events in ${(seconds * 1000).toFixed(0)} ms = ${Math.round(n / seconds)} events/s (batches of 500)`);
          t.equal(await count(db, label), n);
        });
      });
    }
  });
});

t.test('batchSize is bounded by what one INSERT can carry', async (t) => {
  const streams = await backends[0]!.open();
  t.teardown(() => streams.close());
  const { events } = streams;
  const db = {} as Database; // never queried: only the options are checked
  t.throws(() => createEventWriter({ db, events, batchSize: 0 }), /batchSize/);
  t.throws(() => createEventWriter({ db, events, batchSize: 5_001 }), /batchSize/);
  t.doesNotThrow(() => createEventWriter({ db, events, batchSize: 5_000 }));
});

t.test('a record built by core is accepted unchanged (the writer validates with the same schema)', async (t) => {
  const e = createSecurityEvent({ trace_id: 'x', tenant_id: 'default', event_type: 'REQUEST_ALLOWED' });
  const parsed = parseBatch([{ id: '1-0', payload: JSON.parse(JSON.stringify(e)) }]);
  t.same(parsed.valid.map((v) => v.event), [e]);
  t.same(parsed.invalid, []);
});
