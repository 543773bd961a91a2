import t from 'tap';
import { randomUUID } from 'node:crypto';
import { forEachDatabase } from '../testing/databases.js';
import { migrate } from './migrate.js';
import { openDatabase } from './open.js';
import { createResourceRepository, type StoredRecord } from './repositories/resource-repository.js';
import { createEventRepository, type EventRow } from './repositories/event-repository.js';
import { createAuditRepository, type AuditRow } from './repositories/audit-repository.js';
import { createBundleRepository } from './repositories/bundle-repository.js';
import { MIGRATIONS } from './migrations/index.js';
import { isPalisadeError } from '../errors/index.js';

interface Thing extends StoredRecord {
  tenant_id: string;
  name: string;
  status: string;
  nested: { deep: number[] };
}

const now = () => new Date().toISOString();
const thing = (over: Partial<Thing> = {}): Thing => ({
  id: randomUUID(), tenant_id: 't1', name: `n-${randomUUID().slice(0, 8)}`, status: 'DRAFT',
  nested: { deep: [1, 2, 3] }, created_at: now(), updated_at: now(), ...over,
});

const providersSpec = {
  table: 'providers',
  columns: { tenant_id: (r: Thing) => r.tenant_id, name: (r: Thing) => r.name, status: (r: Thing) => r.status },
  conflicts: { providers_tenant_name_key: { en: 'a provider with this name already exists', ru: 'провайдер с таким именем уже есть' } },
};

t.test('store', async (t) => {
  await forEachDatabase(t, async (t, db) => {
    t.test('migrations are recorded and idempotent', async (t) => {
      const again = await migrate(db);
      t.same(again.applied, [], 'nothing applied twice');
      t.equal(again.current, MIGRATIONS.at(-1)!.version);
      const tables = await db.query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`,
      );
      const names = tables.rows.map((r) => r.table_name);
      for (const table of ['providers', 'profiles', 'content_policies', 'exporters', 'reports', 'retention_settings',
        'users', 'user_roles', 'api_keys', 'security_events', 'audit_log', 'policy_bundles', 'schema_migrations']) {
        t.ok(names.includes(table), `table ${table}`);
      }
    });

    t.test('resource repository: insert, get, list, update, delete', async (t) => {
      const repo = createResourceRepository<Thing>(db, providersSpec);
      const a = await repo.insert(thing({ name: 'alpha' }));
      await repo.insert(thing({ name: 'beta', status: 'ACTIVE' }));
      await repo.insert(thing({ name: 'gamma', tenant_id: 't2' }));
      t.same(await repo.get(a.id), a, 'the jsonb record round-trips exactly');
      t.equal(await repo.get(randomUUID()), null);
      t.equal(await repo.get('not-a-uuid'), null, 'a malformed id is simply missing');

      const t1 = await repo.list({ where: { tenant_id: 't1' }, order: 'name', direction: 'asc' });
      t.equal(t1.total, 2);
      t.same(t1.items.map((i) => i.name), ['alpha', 'beta']);
      const active = await repo.list({ where: { tenant_id: ['t1', 't2'], status: 'ACTIVE' } });
      t.same(active.items.map((i) => i.name), ['beta']);
      t.same((await repo.all()).map((i) => i.name).sort(), ['alpha', 'beta', 'gamma'], 'all() has no page limit');
      t.same((await repo.all({ tenant_id: 't2' })).map((i) => i.name), ['gamma']);
      const paged = await repo.list({ where: { tenant_id: 't1' }, order: 'name', direction: 'asc', limit: 1, offset: 1 });
      t.same(paged.items.map((i) => i.name), ['beta']);
      t.equal(paged.total, 2);
      await t.rejects(repo.list({ where: { 'name; DROP TABLE providers': 'x' } }), /undeclared column/);

      const updated = await repo.update(a.id, (cur) => ({ ...cur, status: 'ACTIVE', updated_at: now() }));
      t.equal(updated?.status, 'ACTIVE');
      t.equal((await repo.findOne({ name: 'alpha' }))?.status, 'ACTIVE', 'columns follow the record');
      t.equal(await repo.update(randomUUID(), (c) => c), null);

      t.equal(await repo.delete(a.id), true);
      t.equal(await repo.delete(a.id), false);
      t.equal(await repo.get(a.id), null);
    });

    t.test('a unique constraint becomes CONFLICT with the mapped message', async (t) => {
      const repo = createResourceRepository<Thing>(db, providersSpec);
      await repo.insert(thing({ name: 'dup' }));
      const err = await repo.insert(thing({ name: 'dup' })).catch((e: unknown) => e);
      t.ok(isPalisadeError(err));
      t.match(err, { code: 'CONFLICT', status: 409, message: 'a provider with this name already exists' });
      await repo.insert(thing({ name: 'dup', tenant_id: 'other' }));
    });

    t.test('one active profile per provider is enforced by the schema', async (t) => {
      const providers = createResourceRepository<Thing>(db, providersSpec);
      const profiles = createResourceRepository<Thing & { provider_id: string }>(db, {
        table: 'profiles',
        columns: { tenant_id: (r) => r.tenant_id, name: (r) => r.name, provider_id: (r) => r.provider_id, status: (r) => r.status },
      });
      const p = await providers.insert(thing({ name: 'for-profiles' }));
      await profiles.insert({ ...thing({ name: 'one', status: 'ACTIVE' }), provider_id: p.id });
      await profiles.insert({ ...thing({ name: 'two', status: 'DRAFT' }), provider_id: p.id });
      const err = await profiles.insert({ ...thing({ name: 'three', status: 'ACTIVE' }), provider_id: p.id }).catch((e: unknown) => e);
      t.match(err, { code: 'CONFLICT' });
      const missing = await profiles.insert({ ...thing({ name: 'four' }), provider_id: randomUUID() }).catch((e: unknown) => e);
      t.match(missing, { code: 'CONFLICT' }, 'a missing provider is refused');
    });

    t.test('update runs in a transaction: a failing change leaves the record as it was', async (t) => {
      const repo = createResourceRepository<Thing>(db, providersSpec);
      const rec = await repo.insert(thing({ name: 'tx' }));
      await t.rejects(repo.update(rec.id, () => { throw new Error('nope'); }), /nope/);
      t.same(await repo.get(rec.id), rec);
      // Concurrent updates serialise on the row lock: no lost update.
      await Promise.all(Array.from({ length: 10 }, () =>
        repo.update(rec.id, (cur) => ({ ...cur, nested: { deep: [...cur.nested.deep, 0] } }))));
      t.equal((await repo.get(rec.id))?.nested.deep.length, 13);
    });

    t.test('security events: insert, filter by trace and case-insensitive type/severity, retention', async (t) => {
      const events = createEventRepository<EventRow & { user_prompt?: string }>(db);
      const trace = randomUUID();
      const ev = (type: string, severity: string, ts: string, tenant = 't1') => ({
        id: randomUUID(), trace_id: trace, timestamp: ts, event_type: type, severity, tenant_id: tenant, user_prompt: 'my mail a@b.c',
      });
      const old = ev('PII_DETECTED', 'MEDIUM', '2020-01-01T00:00:00.000Z');
      await events.insert([ev('JAILBREAK_DETECTED', 'CRITICAL', now()), ev('REQUEST_BLOCKED', 'HIGH', now()), old]);
      await events.insert(old); // redelivery is idempotent
      t.equal((await events.list({ trace_id: trace })).total, 3);
      const filtered = await events.list({ trace_id: trace, event_types: ['request_blocked', 'JAILBREAK_DETECTED'], severities: ['high'] });
      t.same(filtered.items.map((e) => e.event_type), ['REQUEST_BLOCKED']);
      t.equal((await events.list({ trace_id: trace, tenant_ids: ['nobody'] })).total, 0);
      t.equal(await events.scrubBefore('2021-01-01T00:00:00Z', (e) => ({ ...e, user_prompt: 'my mail a***@b.c' })), 1);
      t.equal((await events.list({ trace_id: trace, event_types: ['PII_DETECTED'] })).items[0]?.user_prompt, 'my mail a***@b.c');
      t.equal(await events.deleteBefore('2021-01-01T00:00:00Z'), 1);
      t.equal((await events.list({ trace_id: trace })).total, 2);
    });

    t.test('audit log: append, filter, newest first', async (t) => {
      const audit = createAuditRepository<AuditRow & { request_body?: unknown }>(db);
      const rid = randomUUID();
      await audit.append({ id: randomUUID(), timestamp: '2026-01-01T00:00:00.000Z', user_id: 'alice', action: 'CREATE', resource_type: 'providers', resource_id: rid });
      await audit.append({ id: randomUUID(), timestamp: '2026-01-02T00:00:00.000Z', user_id: 'bob', action: 'UPDATE', resource_type: 'providers', resource_id: rid });
      const all = await audit.list({ resource_id: rid });
      t.same(all.items.map((a) => a.user_id), ['bob', 'alice']);
      t.same((await audit.list({ resource_id: rid, action: 'CREATE' })).items.map((a) => a.user_id), ['alice']);
      t.equal((await audit.list({ resource_id: rid, limit: 1 })).items.length, 1);
    });

    t.test('policy bundles: save replaces, get returns the bytes', async (t) => {
      const bundles = createBundleRepository(db);
      t.equal(await bundles.revision(), null);
      t.equal(await bundles.get(), null);
      const archive = Buffer.from([0x1f, 0x8b, 0, 1, 2, 255]);
      await bundles.save({ revision: 'r1', archive });
      t.equal(await bundles.revision(), 'r1');
      const stored = await bundles.get();
      t.ok(stored!.archive.equals(archive), 'binary bytes round-trip');
      t.match(stored!.built_at, /^\d{4}-\d\d-\d\dT/);
      await bundles.save({ revision: 'r2', archive: Buffer.from('x') });
      t.equal(await bundles.revision(), 'r2', 'one row per name');
      t.equal(await bundles.revision('other'), null);
    });

    t.test('listen/notify delivers change notices', async (t) => {
      const got: string[] = [];
      const stop = await db.listen('palisade_test_channel', (p) => got.push(p));
      await db.notify('palisade_test_channel', 'rev-1');
      for (let i = 0; i < 50 && got.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      t.same(got, ['rev-1']);
      await stop();
      await t.rejects(db.notify('bad channel!', 'x'), /invalid notification channel/);
    });
  });
});

t.test('a wrong DATABASE_URL fails with one clear line', async (t) => {
  const err = await openDatabase({ databaseUrl: 'postgres://nobody:secret@127.0.0.1:1/none' }).catch((e: unknown) => e);
  t.ok(err instanceof Error);
  t.match((err as Error).message, /^Cannot connect to PostgreSQL at postgres:\/\/nobody:\*\*\*@127\.0\.0\.1:1\/none: /);
  t.notMatch((err as Error).message, /secret/);
  t.notMatch((err as Error).message, /\n/);
});

t.test('PGlite keeps its data on disk between openings', async (t) => {
  const dir = t.testdir();
  const first = await openDatabase({ dataDir: dir });
  await first.query(`INSERT INTO retention_settings (tenant_id, data, updated_at) VALUES ('x', '{"a":1}', now())`);
  await first.close();
  const second = await openDatabase({ dataDir: dir });
  const rows = await second.query<{ data: unknown }>(`SELECT data FROM retention_settings WHERE tenant_id = 'x'`);
  t.same(rows.rows[0]?.data, { a: 1 });
  await second.close();
});
