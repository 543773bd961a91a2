import t from 'tap';
import { randomUUID } from 'node:crypto';
import { createEventRepository, createSecurityEvent, createUsageRepository, USAGE_LATENCY_BUCKETS, type EventType, type SecurityEvent } from '@palisade/core';
import { forEachDatabase } from '@palisade/core/testing';
import { createTestClock, startTestApp } from '../testing/route-test-app.js';
import { registerDashboardRoutes } from './routes.js';

const P1 = randomUUID();
const P2 = randomUUID();

t.test('dashboard numbers on seeded events', async (t) => {
  await forEachDatabase(t, async (t, db) => {
    const repo = createEventRepository<SecurityEvent>(db);
    const clock = createTestClock(new Date('2026-03-10T12:00:00.000Z'));
    const seed = (day: string, trace: string, type: EventType, over: Partial<Parameters<typeof createSecurityEvent>[0]> = {}) =>
      repo.insert(createSecurityEvent({ tenant_id: 'default', trace_id: trace, event_type: type, ...over }, new Date(`${day}T10:00:00.000Z`)));
    // 2026-03-08: one blocked request (2 events), one sanitized (PII + sanitized), one allowed.
    await seed('2026-03-08', 't1', 'JAILBREAK_DETECTED', { provider_id: P1, provider_name: 'one' });
    await seed('2026-03-08', 't1', 'REQUEST_BLOCKED', { provider_id: P1, provider_name: 'one' });
    await seed('2026-03-08', 't2', 'PII_DETECTED', { provider_id: P1, provider_name: 'one' });
    await seed('2026-03-08', 't2', 'REQUEST_SANITIZED', { provider_id: P1, provider_name: 'one' });
    await seed('2026-03-08', 't3', 'REQUEST_ALLOWED', { provider_id: P2, provider_name: 'two' });
    // 2026-03-09: PII twice on P2, a monitor alert, a response redaction and a content policy block.
    await seed('2026-03-09', 't4', 'PII_DETECTED', { provider_id: P2, provider_name: 'two' });
    await seed('2026-03-09', 't4', 'MONITOR_ALERT', { provider_id: P2, provider_name: 'two' });
    await seed('2026-03-09', 't5', 'PII_DETECTED', { provider_id: P2, provider_name: 'two' });
    await seed('2026-03-09', 't5', 'RESPONSE_REDACTED', { provider_id: P2, provider_name: 'two' });
    await seed('2026-03-09', 't6', 'CUSTOM_POLICY_BLOCK');
    await seed('2026-03-09', 't6', 'RESPONSE_MONITOR_ALERT');
    // Outside the default window, and another tenant: never counted for `default`.
    await seed('2026-02-01', 't7', 'REQUEST_BLOCKED');
    await seed('2026-03-09', 't8', 'RESPONSE_BLOCKED', { tenant_id: 'acme' });
    // A jailbreak blocked with only its cause recorded: a block all the same.
    await seed('2026-02-01', 't9', 'JAILBREAK_DETECTED', { decision: 'BLOCK' });
    // Usage accounting counts every call, the ones without events too (here: the same calls as above).
    const rollup = (tenant_id: string, day: string, requests: number, tokens: number) => ({
      minute: `${day}T10:00:00.000Z`, tenant_id, provider_id: P1, provider_name: 'one', model: 'm', decision: 'ALLOW' as const, status_class: '2xx' as const, inspected: true,
      requests, usage_reported: requests, input_tokens: tokens, output_tokens: 2 * tokens, latency_ms_sum: 100 * requests, latency_buckets: new Array<number>(USAGE_LATENCY_BUCKETS).fill(0),
    });
    await createUsageRepository(db).storeBatch({
      kind: 'usage', batch_id: randomUUID(), source: 'test',
      rollups: [rollup('default', '2026-03-08', 3, 30), rollup('default', '2026-03-09', 3, 10), rollup('default', '2026-02-01', 1, 1), rollup('acme', '2026-03-09', 1, 1)],
    });
    const { call } = await startTestApp(t, (app, ctx) => registerDashboardRoutes(app, { ...ctx, db }), clock.now);

    t.test('default window: the last 7 days of the caller\'s tenant', async (t) => {
      const res = await call('GET', '/api/v1/dashboard', { roles: 'viewer' });
      t.equal(res.status, 200);
      const d = res.body;
      t.equal(d.from, '2026-03-03T12:00:00.000Z');
      t.equal(d.to, '2026-03-10T12:00:00.000Z');
      t.same(d.tenant_ids, ['default']);
      t.same(d.totals, { events: 11, requests: 6, blocks: 2, sanitizations: 2, monitor_alerts: 2, pii_detections: 3 });
      t.same(d.usage, { input_tokens: 40, output_tokens: 80, average_latency_ms: 100 });
      t.equal(d.events_by_type.PII_DETECTED, 3);
      t.equal(d.events_by_type.REQUEST_BLOCKED, 1);
      t.equal(d.events_by_type.RESPONSE_BLOCKED, 0, 'every type listed, zeros included');
      t.same(d.events_by_severity, { CRITICAL: 1, HIGH: 3, MEDIUM: 6, LOW: 0, INFO: 1 });
      t.same(d.top_providers_by_pii, [
        { provider_id: P2, provider_name: 'two', pii_incidents: 2 },
        { provider_id: P1, provider_name: 'one', pii_incidents: 1 },
      ]);
      t.equal(d.per_day.length, 8, 'every day of the window, the partial first and last included');
      t.same(d.per_day.map((r: { date: string }) => r.date).slice(-3), ['2026-03-08', '2026-03-09', '2026-03-10']);
      t.same(d.per_day.at(-3), { date: '2026-03-08', events: 5, requests: 3, blocks: 1, sanitizations: 1, monitor_alerts: 0, pii_detections: 1 });
      t.same(d.per_day.at(-2), { date: '2026-03-09', events: 6, requests: 3, blocks: 1, sanitizations: 1, monitor_alerts: 2, pii_detections: 2 });
      t.same(d.per_day[0], { date: '2026-03-03', events: 0, requests: 0, blocks: 0, sanitizations: 0, monitor_alerts: 0, pii_detections: 0 });
    });

    t.test('explicit window (dates or date-times)', async (t) => {
      const res = await call('GET', '/api/v1/dashboard?from=2026-03-09&to=2026-03-10');
      t.same(res.body.totals, { events: 6, requests: 3, blocks: 1, sanitizations: 1, monitor_alerts: 2, pii_detections: 2 });
      t.equal(res.body.per_day.length, 1);
      const feb = await call('GET', '/api/v1/dashboard?from=2026-01-31T00:00:00Z&to=2026-02-02T00:00:00Z');
      t.equal(feb.body.totals.blocks, 2, 'REQUEST_BLOCKED and a jailbreak whose decision was BLOCK');
    });

    t.test('tenants: another tenant 403; super-admin all or one', async (t) => {
      t.equal((await call('GET', '/api/v1/dashboard?tenant_id=acme')).status, 403);
      const acme = await call('GET', '/api/v1/dashboard', { tenant: 'acme' });
      t.same(acme.body.totals, { events: 1, requests: 1, blocks: 1, sanitizations: 0, monitor_alerts: 0, pii_detections: 0 });
      const all = await call('GET', '/api/v1/dashboard', { roles: 'super-admin', tenant: 'root' });
      t.equal(all.body.tenant_ids, null);
      t.equal(all.body.totals.blocks, 3);
      t.equal(all.body.totals.events, 12, 'the window: last 7 days');
      const one = await call('GET', '/api/v1/dashboard?tenant_id=acme', { roles: 'super-admin', tenant: 'root' });
      t.equal(one.body.totals.events, 1);
      t.equal((await call('GET', '/api/v1/dashboard', { roles: null })).status, 401);
    });

    t.test('bad windows are 400', async (t) => {
      for (const q of ['from=2026-03-10&to=2026-03-01', 'from=2020-01-01&to=2026-01-01', 'from=soon']) {
        const res = await call('GET', `/api/v1/dashboard?${q}`);
        t.equal(res.status, 400, q);
        t.equal(res.body.error.details[0].path, 'from', q);
      }
    });
  });
});
