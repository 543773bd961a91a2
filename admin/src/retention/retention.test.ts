import t from 'tap';
import { randomUUID } from 'node:crypto';
import {
  createAuditRepository,
  createEventRepository,
  createSecurityEvent,
  type AuditRecord,
  type Database,
  type SecurityEvent,
} from '@palisade/core';
import { forEachDatabase } from '@palisade/core/testing';
import { createTestClock, startTestApp } from '../testing/route-test-app.js';
import { registerRetentionRoutes } from './routes.js';
import { scrubEventDetails } from './scrub.js';
import { createRetentionWorker } from './worker.js';

const DAY = 86_400_000;

t.test('scrubEventDetails masks PII values and the prompt, keeps the rest', async (t) => {
  const event = createSecurityEvent({
    trace_id: 't',
    tenant_id: 'default',
    event_type: 'PII_DETECTED',
    user_prompt: 'mail bob@example.com or bob@example.com.au, call +1 555 0100',
    pii_entities: [
      { type: 'EMAIL', start: 5, end: 20, value: 'bob@example.com', masked: '[EMAIL]' },
      { type: 'EMAIL', start: 24, end: 42, value: 'bob@example.com.au', masked: '[EMAIL2]' },
      { type: 'PHONE_NUMBER', start: 49, end: 60, value: '+1 555 0100', masked: '[PHONE]' },
    ],
  });
  const scrubbed = scrubEventDetails(event);
  t.equal(scrubbed.user_prompt, 'mail [EMAIL] or [EMAIL2], call [PHONE]');
  t.same(scrubbed.pii_entities.map((e) => e.value), ['[EMAIL]', '[EMAIL2]', '[PHONE]']);
  t.same(scrubbed.pii_entities.map((e) => [e.start, e.end]), [[5, 20], [24, 42], [49, 60]]);
  t.equal(scrubbed.id, event.id);
  t.equal(scrubEventDetails({ ...event, user_prompt: null }).user_prompt, null);
});

async function seedReport(db: Database, createdAt: Date): Promise<string> {
  const id = randomUUID();
  const record = { id, type: 'PII_DLP', format: 'CSV', period_start: '2020-01-01', period_end: '2020-01-02', tenant_id: 'default', status: 'COMPLETED', created_by: 'u', created_at: createdAt.toISOString() };
  await db.query('INSERT INTO reports (id, tenant_id, status, data, content, created_at, updated_at) VALUES ($1, $2, $3, $4::jsonb, $5, $6, $6)', [
    id,
    'default',
    'COMPLETED',
    JSON.stringify(record),
    Buffer.from('a,b\n'),
    record.created_at,
  ]);
  return id;
}

const auditRecord = (at: Date): AuditRecord => ({
  id: randomUUID(),
  user_id: 'admin',
  user_email: null,
  user_role: 'admin',
  action: 'UPDATE',
  resource_type: 'providers',
  resource_id: null,
  request_method: 'PUT',
  request_path: '/api/v1/providers/x',
  request_body: null,
  response_status: 200,
  source_ip: null,
  timestamp: at.toISOString(),
});

t.test('retention worker with a controllable clock, then the settings routes', async (t) => {
  await forEachDatabase(t, async (t, db) => {
    const clock = createTestClock(new Date('2026-03-01T00:00:00.000Z'));
    const ago = (days: number) => new Date(clock.now().getTime() - days * DAY);
    const events = createEventRepository<SecurityEvent>(db);
    const audit = createAuditRepository<AuditRecord>(db);
    const event = (days: number) =>
      createSecurityEvent(
        {
          trace_id: `age-${days}`,
          tenant_id: 'default',
          event_type: 'PII_DETECTED',
          user_prompt: 'write to alice@example.com',
          pii_entities: [{ type: 'EMAIL', start: 9, end: 26, value: 'alice@example.com', masked: '[EMAIL]' }],
        },
        ago(days),
      );
    const fresh = event(10);
    const old = event(40);
    const expired = event(100);
    await events.insert([fresh, old, expired]);
    const keptReport = await seedReport(db, ago(300));
    await seedReport(db, ago(400));
    const audits = [auditRecord(ago(1000)), auditRecord(ago(1094)), auditRecord(ago(1096))];
    for (const a of audits) await audit.append(a);
    const worker = createRetentionWorker({ db, now: clock.now, intervalMs: 60_000 });
    const byTrace = async () => new Map((await events.list({ limit: 100 })).items.map((e) => [e.trace_id, e]));
    const auditIds = async () => (await audit.list({ limit: 100 })).items.map((a) => a.id).sort();

    t.test('first pass with the default settings', async (t) => {
      const result = await worker.runOnce();
      t.match(result, { events_deleted: 1, details_scrubbed: 1, reports_deleted: 1, audit_deleted: 1 });
      t.equal(result.cutoffs.audit, ago(1095).toISOString());
      const left = await byTrace();
      t.same([...left.keys()].sort(), ['age-10', 'age-40'], 'the 100-day-old event is gone');
      const scrubbed = left.get('age-40')!;
      t.equal(scrubbed.user_prompt, 'write to [EMAIL]');
      t.equal(scrubbed.pii_entities[0]!.value, '[EMAIL]');
      t.equal(scrubbed.event_type, 'PII_DETECTED', 'the event itself is kept');
      t.equal(left.get('age-10')!.pii_entities[0]!.value, 'alice@example.com', 'recent details kept');
      const reports = await db.query<{ id: string }>('SELECT id FROM reports');
      t.same(reports.rows.map((r) => r.id), [keptReport]);
      t.same(await auditIds(), [audits[0]!.id, audits[1]!.id].sort(), 'audit records younger than 1095 days kept');
    });

    t.test('a second pass changes nothing; time moving on applies the same rules', async (t) => {
      t.match(await worker.runOnce(), { events_deleted: 0, details_scrubbed: 0, reports_deleted: 0, audit_deleted: 0 });
      clock.advanceDays(2);
      const result = await worker.runOnce();
      t.equal(result.audit_deleted, 1, 'the 1094-day-old record passed 1095 days');
      t.same(await auditIds(), [audits[0]!.id]);
      clock.advanceDays(25);
      t.match(await worker.runOnce(), { details_scrubbed: 1, events_deleted: 0 });
      t.equal((await byTrace()).get('age-10')!.user_prompt, 'write to [EMAIL]');
    });

    t.test('saved settings apply on the next pass', async (t) => {
      await db.query(`INSERT INTO retention_settings (tenant_id, data, updated_at) VALUES ('*', $1::jsonb, now())`, [
        JSON.stringify({ audit_retention_days: 5000, event_retention_days: 60, detail_retention_days: 10, report_retention_days: 10 }),
      ]);
      const result = await worker.runOnce();
      t.match(result, { events_deleted: 1, reports_deleted: 1, audit_deleted: 0 });
      t.same([...(await byTrace()).keys()], ['age-10']);
    });

    t.test('start runs a pass now and stop waits for it', async (t) => {
      await events.insert(event(5000));
      worker.start();
      const deadline = Date.now() + 30_000;
      while ((await byTrace()).has('age-5000') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      await worker.stop();
      t.notOk((await byTrace()).has('age-5000'), 'the started worker ran a pass');
    });

    // Routes after the worker on the same database (one PGlite start per file).
    const { call } = await startTestApp(t, (app, ctx) => registerRetentionRoutes(app, { ...ctx, db }), clock.now);

    t.test('defaults until saved', async (t) => {
      await db.query('DELETE FROM retention_settings');
      const res = await call('GET', '/api/v1/retention-settings');
      t.equal(res.status, 200);
      t.same(res.body, { audit_retention_days: 1095, event_retention_days: 90, detail_retention_days: 30, report_retention_days: 365, updated_at: null, updated_by: null });
    });

    t.test('partial PUT keeps the other fields and records who and when', async (t) => {
      const res = await call('PUT', '/api/v1/retention-settings', { body: { event_retention_days: 120, unknown: 1 } });
      t.equal(res.status, 200);
      t.same(res.body, { audit_retention_days: 1095, event_retention_days: 120, detail_retention_days: 30, report_retention_days: 365, updated_at: clock.now().toISOString(), updated_by: 'test-user' });
      t.same((await call('GET', '/api/v1/retention-settings')).body, res.body);
      const more = await call('PUT', '/api/v1/retention-settings', { body: { audit_retention_days: 2000 } });
      t.match(more.body, { audit_retention_days: 2000, event_retention_days: 120 });
    });

    t.test('rules: audit at least 1095, details within events, days are integers', async (t) => {
      for (const [body, path] of [
        [{ audit_retention_days: 1094 }, 'audit_retention_days'],
        [{ event_retention_days: 0 }, 'event_retention_days'],
        [{ report_retention_days: 1.5 }, 'report_retention_days'],
        [{ detail_retention_days: 200 }, 'detail_retention_days'],
        [{ detail_retention_days: 50, event_retention_days: 40 }, 'detail_retention_days'],
        [[1], ''],
      ] as const) {
        const res = await call('PUT', '/api/v1/retention-settings', { body });
        t.equal(res.status, 400, JSON.stringify(body));
        t.equal(res.body.error.code, 'VALIDATION_ERROR');
        t.equal(res.body.error.details[0].path, path, JSON.stringify(body));
      }
      t.equal((await call('GET', '/api/v1/retention-settings')).body.event_retention_days, 120, 'nothing saved');
    });

    t.test('admin only', async (t) => {
      t.equal((await call('GET', '/api/v1/retention-settings', { roles: 'viewer' })).status, 403);
      t.equal((await call('GET', '/api/v1/retention-settings', { roles: 'operator' })).status, 403);
      t.equal((await call('PUT', '/api/v1/retention-settings', { roles: 'operator', body: { event_retention_days: 10 } })).status, 403);
      t.equal((await call('PUT', '/api/v1/retention-settings', { roles: null, body: {} })).status, 401);
      t.equal((await call('GET', '/api/v1/retention-settings', { roles: 'super-admin', tenant: 'root' })).status, 200);
    });
  });
});
