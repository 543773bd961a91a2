import t from 'tap';
import { randomUUID } from 'node:crypto';
import { createEventRepository, createSecurityEvent, type SecurityEvent, type SecurityEventDraft } from '@palisade/core';
import { forEachDatabase } from '@palisade/core/testing';
import { startTestApp } from '../testing/route-test-app.js';
import { registerSecurityEventRoutes } from './routes.js';

const PROVIDER = randomUUID();

t.test('security events over real HTTP', async (t) => {
  await forEachDatabase(t, async (t, db) => {
    const repo = createEventRepository<SecurityEvent>(db);
    const base = Date.parse('2026-02-01T00:00:00.000Z');
    const at = (hours: number) => new Date(base + hours * 3_600_000);
    const seed = async (draft: Omit<SecurityEventDraft, 'tenant_id'> & { tenant_id?: string }, hours: number) => {
      const event = createSecurityEvent({ tenant_id: 'default', ...draft }, at(hours));
      await repo.insert(event);
      return event;
    };
    const blocked = await seed({ trace_id: 'trace-1', event_type: 'REQUEST_BLOCKED', provider_id: PROVIDER, decision: 'BLOCK' }, 1);
    const jailbreak = await seed({ trace_id: 'trace-1', event_type: 'JAILBREAK_DETECTED', provider_id: PROVIDER, decision: 'BLOCK' }, 2);
    const pii = await seed({ trace_id: 'trace-2', event_type: 'PII_DETECTED' }, 3);
    const rateLimit = await seed({ trace_id: 'trace-3', event_type: 'RATE_LIMIT' }, 4);
    const acme = await seed({ trace_id: 'trace-4', event_type: 'REQUEST_BLOCKED', tenant_id: 'acme' }, 5);
    const { call } = await startTestApp(t, (app, ctx) => registerSecurityEventRoutes(app, { ...ctx, db }));
    const ids = (body: { items: SecurityEvent[] }) => body.items.map((e) => e.id);

    t.test('list: the tenant\'s events, newest first, with paging', async (t) => {
      const res = await call('GET', '/api/v1/security-events', { roles: 'viewer' });
      t.equal(res.status, 200);
      t.same(ids(res.body), [rateLimit.id, pii.id, jailbreak.id, blocked.id]);
      t.match(res.body, { total: 4, limit: 50, offset: 0 });
      t.same(res.body.items[3], blocked, 'the stored record as emitted');
      const page = await call('GET', '/api/v1/security-events?limit=2&offset=1&unknown=1');
      t.same(ids(page.body), [pii.id, jailbreak.id]);
      t.equal(page.body.total, 4);
    });

    t.test('filters: trace, type, severity (any case), both together, provider, decision, window', async (t) => {
      t.same(ids((await call('GET', '/api/v1/security-events?trace_id=trace-1')).body), [jailbreak.id, blocked.id]);
      t.same(ids((await call('GET', '/api/v1/security-events?event_type=pii_detected')).body), [pii.id]);
      t.same(ids((await call('GET', '/api/v1/security-events?severity=critical')).body), [jailbreak.id]);
      t.same(ids((await call('GET', '/api/v1/security-events?severity=high')).body), [blocked.id]);
      t.same(ids((await call('GET', '/api/v1/security-events?severity=high&event_type=JAILBREAK_DETECTED')).body), [], 'both must match');
      t.same(ids((await call('GET', `/api/v1/security-events?provider_id=${PROVIDER}`)).body), [jailbreak.id, blocked.id]);
      t.same(ids((await call('GET', '/api/v1/security-events?decision=block')).body), [jailbreak.id, blocked.id]);
      const from = at(2).toISOString();
      const to = at(4).toISOString();
      t.same(ids((await call('GET', `/api/v1/security-events?from=${from}&to=${to}`)).body), [pii.id, jailbreak.id], 'from inclusive, to exclusive');
    });

    t.test('bad queries are 400 naming the field', async (t) => {
      for (const [q, path] of [
        ['severity=urgent', 'severity'],
        ['event_type=NOPE', 'event_type'],
        ['limit=0', 'limit'],
        ['limit=1001', 'limit'],
        ['from=yesterday', 'from'],
        ['provider_id=x', 'provider_id'],
        [`from=${at(5).toISOString()}&to=${at(1).toISOString()}`, 'to'],
      ] as const) {
        const res = await call('GET', `/api/v1/security-events?${q}`);
        t.equal(res.status, 400, q);
        t.equal(res.body.error.code, 'VALIDATION_ERROR');
        t.equal(res.body.error.details[0].path, path, q);
      }
      t.equal((await call('GET', '/api/v1/security-events?limit=1000')).status, 200);
    });

    t.test('tenants: another tenant is 403, super-admin sees all or picks one', async (t) => {
      t.same(ids((await call('GET', '/api/v1/security-events', { tenant: 'acme' })).body), [acme.id]);
      t.equal((await call('GET', '/api/v1/security-events?tenant_id=acme')).status, 403);
      const all = await call('GET', '/api/v1/security-events', { roles: 'super-admin', tenant: 'root' });
      t.equal(all.body.total, 5);
      t.equal(all.body.items[0].id, acme.id);
      t.same(ids((await call('GET', '/api/v1/security-events?tenant_id=acme', { roles: 'super-admin', tenant: 'root' })).body), [acme.id]);
      t.equal((await call('GET', '/api/v1/security-events', { roles: null })).status, 401);
      t.equal((await call('GET', '/api/v1/security-events', { roles: 'nobody' })).status, 403);
    });

    t.test('one event by id; missing and malformed ids are 404, another tenant\'s is 403', async (t) => {
      const got = await call('GET', `/api/v1/security-events/${pii.id}`, { roles: 'viewer' });
      t.equal(got.status, 200);
      t.same(got.body, pii);
      t.equal((await call('GET', `/api/v1/security-events/${randomUUID()}`)).status, 404);
      t.equal((await call('GET', '/api/v1/security-events/xyz')).status, 404);
      t.equal((await call('GET', `/api/v1/security-events/${acme.id}`)).status, 403);
      t.equal((await call('GET', `/api/v1/security-events/${acme.id}`, { roles: 'super-admin' })).status, 200);
    });
  });
});

t.test('the event view shows the proof of inspection; a record stored before it shows an empty one', async (t) => {
  await forEachDatabase(t, async (t, db) => {
    const repo = createEventRepository<SecurityEvent>(db);
    const inspection = [
      { detector: 'threat' as const, side: 'request' as const, status: 'ok' as const, model_version: 'threat-v2', score: 0.91, threshold: 0.8, latency_ms: 2.5, findings: 1, fired_rules: [], reason: null },
      { detector: 'content_policy' as const, side: 'request' as const, status: 'ok' as const, model_version: null, score: null, threshold: null, latency_ms: 0.4, findings: 2, fired_rules: [{ policy_id: randomUUID(), rule_index: 3 }], reason: null },
      { detector: 'content_safety' as const, side: 'request' as const, status: 'skipped' as const, model_version: null, score: null, threshold: null, latency_ms: null, findings: 0, fired_rules: [], reason: 'off_in_profile' as const },
    ];
    const proved = createSecurityEvent({ tenant_id: 'default', trace_id: 'trace-proof', event_type: 'JAILBREAK_DETECTED', inspection });
    const { inspection: _, ...older } = createSecurityEvent({ tenant_id: 'default', trace_id: 'trace-old', event_type: 'PII_DETECTED' });
    // A check stored before a skipped check said why: no `reason` at all.
    const { reason: _none, ...unexplained } = inspection[2]!;
    const beforeReasons = { ...createSecurityEvent({ tenant_id: 'default', trace_id: 'trace-unexplained', event_type: 'PII_DETECTED' }), inspection: [unexplained] };
    await repo.insert([proved, older as SecurityEvent, beforeReasons as SecurityEvent]);
    const { call } = await startTestApp(t, (app, ctx) => registerSecurityEventRoutes(app, { ...ctx, db }));
    t.same((await call('GET', `/api/v1/security-events/${proved.id}`)).body.inspection, inspection, "a skipped check's reason is stored and answered");
    t.same((await call('GET', '/api/v1/security-events?trace_id=trace-proof')).body.items[0].inspection, inspection);
    t.same((await call('GET', `/api/v1/security-events/${older.id}`)).body.inspection, []);
    t.same((await call('GET', `/api/v1/security-events/${beforeReasons.id}`)).body.inspection, [inspection[2]!].map((c) => ({ ...c, reason: null })), 'an older skipped check answers reason null');
  });
});
