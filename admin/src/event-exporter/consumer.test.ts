// The consumer end to end: exporter records in the database (PostgreSQL and PGlite), events on the
// in-process stream, real destinations on 127.0.0.1.
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { Registry } from 'prom-client';
import { createMemoryStreams, createResourceStore, createSecretBox, type Database, type Exporter, type SecurityEvent } from '@palisade/core';
import { forEachDatabase, forOneDatabase } from '@palisade/core/testing';
import { createExporterConsumer, SECURITY_EVENTS_STREAM } from './consumer.js';
import { exporterDeadLetterStream } from './dead-letter.js';
import { createExporterMetrics } from './metrics.js';
import { exporterGroup } from './worker.js';
import { exporterRecord, sampleEvent, startWebhookReceiver, until } from '../testing/exporter-peers.js';

/**
 * How long the destination is down in the outage scenario: long enough for the backoff to reach its
 * ceiling (retryMaxMs 1 s below) several times over; EXPORTER_TEST_OUTAGE_MS=20000 replays a 20 s one.
 */
const OUTAGE_MS = Number(process.env.EXPORTER_TEST_OUTAGE_MS ?? 4_000);
const secrets = createSecretBox('exporter-test-key');
t.setTimeout(2 * OUTAGE_MS + 240_000);
const fresh = (label: string, n: number, overrides: Partial<SecurityEvent> = {}) =>
  Array.from({ length: n }, (_, i) => sampleEvent({ id: globalThis.crypto.randomUUID(), trace_id: `${label}-${i}`, timestamp: new Date().toISOString(), ...overrides }));

function setup(t: { teardown(fn: () => unknown): void }, db: Database, extra: Partial<Parameters<typeof createExporterConsumer>[0]> = {}) {
  const streams = createMemoryStreams();
  const registry = new Registry();
  const metrics = createExporterMetrics(registry);
  const make = () =>
    createExporterConsumer({ db, events: streams.events, secrets, metrics, pollIntervalMs: 50, refreshMs: 100, retryInitialMs: 100, retryMaxMs: 1_000, claimIdleMs: 1_000, webhookRetryBaseMs: 20, consumer: 'c1', ...extra });
  t.teardown(() => streams.close());
  return { streams, registry, metrics, make, store: createResourceStore(db) };
}

const append = async (streams: ReturnType<typeof createMemoryStreams>, events: SecurityEvent[]) => {
  for (const e of events) await streams.events.append(SECURITY_EVENTS_STREAM, e);
};

/** True once the exporter's consumer group no longer exists on the stream. */
const groupGone = (streams: ReturnType<typeof createMemoryStreams>, exporterId: string): Promise<boolean> =>
  streams.events.pending(SECURITY_EVENTS_STREAM, exporterGroup(exporterId)).then(
    () => false,
    (err: unknown) => (err as { code?: string }).code === 'NOGROUP',
  );

/** A webhook exporter to a fresh receiver on 127.0.0.1. */
async function webhookExporter(t: { teardown(fn: () => unknown): void }, store: ReturnType<typeof createResourceStore>) {
  const peer = await startWebhookReceiver();
  t.teardown(() => peer.close());
  const record = await store.exporters.insert(exporterRecord({ type: 'webhook', config: { url: peer.url } }));
  return { peer, record };
}

t.test(`file destination down for ${OUTAGE_MS} ms, then up: every event arrives once`, async (t) => {
  // The subject is the destination's outage: one database is enough (the others run on both).
  await forOneDatabase(t, async (t, db) => {
    const { streams, make, store, registry } = setup(t, db);
    const dir = await mkdtemp(path.join(tmpdir(), 'palisade-outage-'));
    t.teardown(() => rm(dir, { recursive: true, force: true }));
    const target = path.join(dir, 'mnt'); // missing until the outage ends
    const record = await store.exporters.insert(exporterRecord({ type: 'file', config: { path: path.join(target, 'events.jsonl') } }));
    const consumer = make();
    await consumer.start();
    t.teardown(() => consumer.stop());
    const before = fresh('outage-a', 15);
    await append(streams, before);
    await until('a failed delivery', () => (consumer.workers.get(record.id)?.stats.failures ?? 0) > 0);
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS / 2));
    const during = fresh('outage-b', 15);
    await append(streams, during);
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS / 2));
    await mkdir(target);
    const file = path.join(target, 'events.jsonl');
    const lines = async () => (await readFile(file, 'utf8').catch(() => '')).split('\n').filter(Boolean);
    await until('all 30 events written', async () => (await lines()).length >= 30, 30_000);
    const traces = (await lines()).map((l) => (JSON.parse(l) as SecurityEvent).trace_id);
    t.same(traces, [...before, ...during].map((e) => e.trace_id), 'in order, none missing, none twice');
    await until('all acked', async () => (await streams.events.pending(SECURITY_EVENTS_STREAM, exporterGroup(record.id))) === 0);
    const text = await registry.metrics();
    t.match(text, new RegExp(`palisade_exporter_delivered_total\\{exporter_id="${record.id}",exporter_type="file"\\} 30`));
    t.match(text, /palisade_exporter_failed_total\{[^}]*\} [1-9]/);
    t.match(text, /palisade_exporter_retried_total\{[^}]*\} [1-9]/);
  });
});

t.test('an exporter process that stops while its destination is down loses nothing', async (t) => {
  await forEachDatabase(t, async (t, db) => {
    const { streams, make, store } = setup(t, db);
    const { peer, record } = await webhookExporter(t, store);
    const first = make();
    await first.start();
    await append(streams, fresh('restart-a', 5));
    await peer.waitForAccepted(5);
    await peer.stop(); // destination down: connection refused, events stay pending
    await append(streams, fresh('restart-b', 5));
    await until('a failed delivery', () => (first.workers.get(record.id)?.stats.failures ?? 0) > 0);
    await first.stop(); // the process "dies" holding unacked entries
    t.ok((await streams.events.pending(SECURITY_EVENTS_STREAM, exporterGroup(record.id))) > 0, 'entries pending in the group');
    await peer.start();
    const second = make(); // a new process takes over the pending entries after claimIdleMs
    await second.start();
    t.teardown(() => second.stop());
    await append(streams, fresh('restart-c', 5));
    await peer.waitForAccepted(15, 20_000);
    const traces = peer.accepted.map((r) => (JSON.parse(r.body) as SecurityEvent).trace_id);
    for (const label of ['restart-a', 'restart-b', 'restart-c']) for (let i = 0; i < 5; i++) t.ok(traces.includes(`${label}-${i}`), `${label}-${i} arrived`);
  });
});

t.test('filters, toggle, edit and delete are picked up on refresh', async (t) => {
  await forEachDatabase(t, async (t, db) => {
    const { streams, make, store } = setup(t, db);
    const peer = await startWebhookReceiver();
    t.teardown(() => peer.close());
    const record = await store.exporters.insert(
      exporterRecord({ type: 'webhook', config: { url: peer.url }, filters: { severities: ['critical', 'high'], event_types: ['JAILBREAK_DETECTED', 'REQUEST_BLOCKED'], tenant_ids: ['acme'] } }),
    );
    const consumer = make();
    await consumer.start();
    t.teardown(() => consumer.stop());
    const traces = () => peer.accepted.map((r) => (JSON.parse(r.body) as SecurityEvent).trace_id);
    await append(streams, [
      ...fresh('match', 1),
      ...fresh('wrong-tenant', 1, { tenant_id: 'other' }),
      ...fresh('wrong-type', 1, { event_type: 'PII_DETECTED', severity: 'HIGH' }),
      ...fresh('wrong-severity', 1, { event_type: 'REQUEST_BLOCKED', severity: 'MEDIUM' }),
      ...fresh('match-blocked', 1, { event_type: 'REQUEST_BLOCKED', severity: 'HIGH' }),
    ]);
    await until('filters applied', async () => (await streams.events.pending(SECURITY_EVENTS_STREAM, exporterGroup(record.id))) === 0 && peer.accepted.length >= 2);
    t.same(traces(), ['match-0', 'match-blocked-0']);

    await store.exporters.update(record.id, (r) => ({ ...r, enabled: false, updated_at: new Date().toISOString() }));
    await until('disabled', () => consumer.workers.get(record.id)?.exporter.enabled === false);
    await append(streams, fresh('while-disabled', 2));
    await until('skipped', () => (consumer.workers.get(record.id)?.stats.skipped ?? 0) >= 2);

    await store.exporters.update(record.id, (r) => ({ ...r, enabled: true, filters: { severities: [], event_types: [], tenant_ids: [] }, field_mapping: 'custom', custom_mapping: { trace_id: 'tid' }, updated_at: new Date().toISOString() }) as Exporter);
    await until('edited', () => consumer.workers.get(record.id)?.exporter.field_mapping === 'custom');
    await append(streams, fresh('after-edit', 1, { tenant_id: 'other' }));
    await peer.waitForAccepted(3);
    t.equal(JSON.parse(peer.accepted[2]!.body).tid, 'after-edit-0', 'new mapping and filters apply; nothing sent while disabled');

    await store.exporters.delete(record.id);
    await until('deleted', () => !consumer.workers.has(record.id));
    await until('its consumer group dropped', () => groupGone(streams, record.id));
    await append(streams, fresh('after-delete', 1));
    await new Promise((resolve) => setTimeout(resolve, 300));
    t.equal(peer.accepted.length, 3);
  });
});

t.test('a deletion seen by one replica: the group is dropped, and the other replica stops instead of replaying', async (t) => {
  await forEachDatabase(t, async (t, db) => {
    const { streams, make, store } = setup(t, db);
    const { peer, record } = await webhookExporter(t, store);
    const a = make();
    // B would not read the table again for a minute: only its worker meeting NOGROUP can make it.
    const b = createExporterConsumer({ db, events: streams.events, secrets, metrics: createExporterMetrics(new Registry()), pollIntervalMs: 50, refreshMs: 60_000, retryInitialMs: 300, consumer: 'c2' });
    await a.start();
    await b.start();
    t.teardown(() => Promise.all([a.stop(), b.stop()]));
    await append(streams, fresh('before', 4));
    await peer.waitForAccepted(4);

    await store.exporters.delete(record.id);
    await until('replica A dropped the group', () => groupGone(streams, record.id));
    await until('replica B stopped its worker', () => !b.workers.has(record.id));
    await append(streams, fresh('after', 2));
    await new Promise((resolve) => setTimeout(resolve, 800));
    t.ok(await groupGone(streams, record.id), 'nobody created the group again');
    t.equal(peer.accepted.length, 4, 'nothing replayed or sent after the deletion');
  });
});

t.test('events refused after the retries are dead-lettered and counted', async (t) => {
  await forEachDatabase(t, async (t, db) => {
    const { streams, make, store, registry } = setup(t, db);
    const peer = await startWebhookReceiver();
    t.teardown(() => peer.close());
    const record = await store.exporters.insert(exporterRecord({ type: 'webhook', config: { url: peer.url, max_retries: 1 } }));
    const consumer = make();
    await consumer.start();
    t.teardown(() => consumer.stop());
    peer.failNext(1, 400);
    peer.failNext(2, 502);
    const events = fresh('dead', 3);
    await append(streams, events);
    await peer.waitForAccepted(1);
    await until('acked', async () => (await streams.events.pending(SECURITY_EVENTS_STREAM, exporterGroup(record.id))) === 0 && peer.requests.length >= 4);
    const dead = await streams.events.read(exporterDeadLetterStream(SECURITY_EVENTS_STREAM), 'inspect', 'inspect', { count: 10 }).catch(async () => {
      await streams.events.ensureGroup(exporterDeadLetterStream(SECURITY_EVENTS_STREAM), 'inspect');
      return streams.events.read(exporterDeadLetterStream(SECURITY_EVENTS_STREAM), 'inspect', 'inspect', { count: 10 });
    });
    t.same(dead.map((d) => (d.payload as Record<string, string>).reason), ['HTTP 400', 'HTTP 502 after 1 retries']);
    t.same(dead.map((d) => (JSON.parse((d.payload as Record<string, string>).payload!) as SecurityEvent).trace_id), ['dead-0', 'dead-1']);
    t.equal((dead[0]!.payload as Record<string, string>).exporter_id, record.id);
    t.equal(JSON.parse(peer.accepted[0]!.body).trace_id, 'dead-2');
    const text = await registry.metrics();
    t.match(text, /palisade_exporter_dead_lettered_total\{[^}]*\} 2/);
    t.match(text, /palisade_exporter_delivered_total\{[^}]*\} 1/);
  });
});
