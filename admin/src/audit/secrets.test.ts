// No secret in clear in the audit log, the exporter answers or the stored rows: an exporter with
// credential headers created through the Admin API, on both databases.
import t from 'tap';
import type { Test } from 'tap';
import { AUDIT_REDACTED_VALUE, createSecretBox, MIGRATIONS } from '@palisade/core';
import { forEachDatabase } from '@palisade/core/testing';
import { standardRouteModules } from '../admin-api/standard-modules.js';
import { providerBody, startAdminApi, type Caller } from '../testing/admin-api.js';

const admin: Caller = { user: 'alice', groups: 'admin', tenant: 'acme' };
const BEARER = 'Bearer wh-7f3a9c2e11d04b6a';
const API_KEY = 'xk-51c0ffee51c0ffee51c0';
const SASL = 'kafka-pass-8812';
const GITHUB = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
const JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
const CLEAR = [BEARER, 'wh-7f3a9c2e11d04b6a', API_KEY, SASL, GITHUB, JWT, 'sk-live-42'];

function assertNoClear(t: Test, what: string, text: string, values = CLEAR) {
  for (const value of values) t.notOk(text.includes(value), `${what}: no ${value.slice(0, 12)}… in clear`);
}

t.test('secrets never in clear in the audit log, the answers or the rows', async (t) => {
  await forEachDatabase(t, async (t, db) => {
    const secrets = createSecretBox('test-key');
    const { call } = await startAdminApi(t, db, { routeModules: standardRouteModules({ db, secrets }) });

    const created = await call('POST', '/api/v1/exporters', {
      as: admin,
      body: {
        name: 'siem-hook',
        type: 'webhook',
        description: `rotated token ${GITHUB} last week`,
        config: { url: 'http://127.0.0.1:9/hook', headers: { Authorization: BEARER, 'X-Api-Key': API_KEY, 'X-Team': 'blue' } },
      },
    });
    t.equal(created.status, 201, created.text);
    const kafka = await call('POST', '/api/v1/exporters', {
      as: admin,
      body: { name: 'bus', type: 'kafka', config: { brokers: ['127.0.0.1:9092'], topic: 'events', sasl_mechanism: 'PLAIN', sasl_username: 'u', sasl_password: SASL } },
    });
    t.equal(kafka.status, 201, kafka.text);
    const update = await call('PUT', `/api/v1/exporters/${created.body.id}`, {
      as: admin,
      // A partial update without `type`, a cookie header and a JWT in an unknown field.
      body: { config: { headers: { Cookie: 'session=abc', authorization: BEARER } }, note: `debug ${JWT}` },
    });
    t.not(update.status, 500, update.text);
    const provider = await call('POST', '/api/v1/providers', { as: admin, body: providerBody({ upstream_auth: { type: 'bearer', token: 'sk-live-42' } }) });
    t.equal(provider.status, 201);

    const one = await call('GET', `/api/v1/exporters/${created.body.id}`, { as: admin });
    // The description is the user's free text, answered as written; only the audit log scans it.
    const FIELDS = [BEARER, API_KEY, SASL, 'sk-live-42'];
    assertNoClear(t, 'exporter GET', one.text, FIELDS);
    t.same(one.body.config.headers, { Cookie: '***', authorization: '***' }, 'the update replaced the headers map; every value masked');
    assertNoClear(t, 'exporter list', (await call('GET', '/api/v1/exporters', { as: admin })).text, FIELDS);
    assertNoClear(t, 'create answer', created.text + kafka.text + provider.text, FIELDS);

    const log = await call('GET', '/api/v1/audit-log?limit=1000', { as: admin });
    t.equal(log.status, 200);
    assertNoClear(t, 'audit log', log.text);
    const createRecord = log.body.find((r: { resource_type: string; request_method: string; request_body: { name?: string } }) => r.request_body?.name === 'siem-hook');
    t.same(createRecord.request_body.config.headers, { Authorization: AUDIT_REDACTED_VALUE, 'X-Api-Key': AUDIT_REDACTED_VALUE, 'X-Team': AUDIT_REDACTED_VALUE }, 'every webhook header value (marked secret in the model)');
    t.equal(createRecord.request_body.description, `rotated token ${AUDIT_REDACTED_VALUE} last week`, 'a token in free text: the span is masked, the text kept');
    t.equal(createRecord.request_body.config.url, 'http://127.0.0.1:9/hook', 'the rest is kept');
    const updateRecord = log.body.find((r: { request_method: string }) => r.request_method === 'PUT');
    t.same(updateRecord.request_body.config.headers, { Cookie: AUDIT_REDACTED_VALUE, authorization: AUDIT_REDACTED_VALUE });
    t.equal(updateRecord.request_body.note, `debug ${AUDIT_REDACTED_VALUE}`);

    const rows = await db.query<{ data: unknown }>('SELECT data FROM audit_log');
    assertNoClear(t, 'audit rows', JSON.stringify(rows.rows));
    const stored = await db.query<{ data: unknown }>('SELECT data FROM exporters');
    assertNoClear(t, 'exporter rows', JSON.stringify(stored.rows), FIELDS);
    const providers = await db.query<{ data: unknown }>('SELECT data FROM providers');
    assertNoClear(t, 'provider rows', JSON.stringify(providers.rows));
  });
});

t.test('the migration masks webhook headers of records written in clear before', async (t) => {
  await forEachDatabase(t, async (t, db) => {
    const body = { name: 'old', type: 'webhook', config: { url: 'http://x.test/', headers: { Authorization: BEARER, 'X-Team': 'blue' } } };
    const record = { id: '0b7f2c1e-4a5d-4e6f-8a9b-0c1d2e3f4a5b', user_id: 'u', action: 'CREATE', resource_type: 'exporters', request_body: body };
    await db.query(`INSERT INTO audit_log (id, ts, user_id, action, resource_type, data) VALUES ($1, now(), 'u', 'CREATE', 'exporters', $2::jsonb)`, [record.id, JSON.stringify(record)]);
    await db.query(`INSERT INTO audit_log (id, ts, user_id, action, resource_type, data) VALUES ($1, now(), 'u', 'CREATE', 'providers', $2::jsonb)`, ['1b7f2c1e-4a5d-4e6f-8a9b-0c1d2e3f4a5b', JSON.stringify({ ...record, resource_type: 'providers', request_body: { name: 'p' } })]);
    await db.exec(MIGRATIONS.find((m) => m.name === 'audit-secret-headers')!.sql);
    const rows = await db.query<{ data: { request_body: { config?: { headers: unknown }; name: string } } }>('SELECT data FROM audit_log ORDER BY id');
    t.same(rows.rows[0]!.data.request_body.config!.headers, { Authorization: AUDIT_REDACTED_VALUE, 'X-Team': AUDIT_REDACTED_VALUE });
    t.equal(rows.rows[0]!.data.request_body.name, 'old');
    t.same(rows.rows[1]!.data.request_body, { name: 'p' }, 'other records untouched');
  });
});
