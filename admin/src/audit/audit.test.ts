// Audit records of Admin API writes, over real HTTP on both databases.
import t from 'tap';
import { AUDIT_REDACTED_VALUE } from '@palisade/core';
import { forEachDatabase } from '@palisade/core/testing';
import { providerBody, startAdminApi, type Caller } from '../testing/admin-api.js';

const admin: Caller = { user: 'alice', groups: 'admin', tenant: 'acme', email: 'alice@acme.test' };
const operator: Caller = { user: 'oscar', groups: 'operator,viewer', tenant: 'acme' };
const other: Caller = { user: 'gina', groups: 'admin', tenant: 'globex' };
const root: Caller = { user: 'root', groups: 'super-admin', tenant: 'platform' };

t.test('audit records', async (t) => {
  await forEachDatabase(t, async (t, db) => {
    let clock = Date.parse('2030-01-01T00:00:00.000Z');
    const { call } = await startAdminApi(t, db, { now: () => new Date((clock += 1000)) });
    const log = async (query: string, as: Caller = admin) => {
      const res = await call('GET', `/api/v1/audit-log${query}`, { as });
      t.equal(res.status, 200, `audit-log${query}`);
      return res.body as Array<Record<string, any>>;
    };

    t.test('each write leaves a record with the spec fields; GET leaves none', async (t) => {
      const created = await call('POST', '/api/v1/providers', {
        as: operator,
        body: providerBody({ upstream_auth: { type: 'bearer', token: 'sk-live' } }),
        headers: { 'x-forwarded-for': '203.0.113.9, 10.0.0.2' },
      });
      t.equal(created.status, 201);
      const id = created.body.id;
      await call('GET', `/api/v1/providers/${id}`, { as: operator });
      await call('PUT', `/api/v1/providers/${id}`, { as: operator, body: { priority: 9 } });
      await call('DELETE', `/api/v1/providers/${id}`, { as: admin });
      const records = await log(`?resource_id=${id}`);
      t.same(records.map((r) => [r.action, r.request_method, r.response_status, r.user_id, r.user_role]), [
        ['DELETE', 'DELETE', 204, 'alice', 'admin'],
        ['UPDATE', 'PUT', 200, 'oscar', 'operator'],
        ['CREATE', 'POST', 201, 'oscar', 'operator'],
      ], 'newest first, GET not recorded, role at the time (highest)');
      const create = records[2]!;
      t.match(create, { resource_type: 'providers', resource_id: id, request_path: '/api/v1/providers', source_ip: '203.0.113.9', user_email: 'oscar@example.com' });
      t.equal(create.request_body.upstream_auth.token, AUDIT_REDACTED_VALUE, 'secrets masked');
      t.equal(create.request_body.name, created.body.name);
      t.match(create.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      t.equal(records[0]!.source_ip, '127.0.0.1', 'the direct peer without X-Forwarded-For');
    });

    t.test('refused and invalid writes are recorded with their status; excluded paths are not', async (t) => {
      const denied = await call('DELETE', '/api/v1/content-policies/0b7f2c1e-4a5d-4e6f-8a9b-0c1d2e3f4a5b', { as: operator });
      t.equal(denied.status, 403);
      const invalid = await call('POST', '/api/v1/users', { as: admin, body: { username: 'x', password: 'short' } });
      t.equal(invalid.status, 400);
      const policies = await log('?resource_type=policies');
      t.match(policies[0], { action: 'DELETE', response_status: 403, user_id: 'oscar', resource_id: '0b7f2c1e-4a5d-4e6f-8a9b-0c1d2e3f4a5b' });
      const users = await log('?resource_type=users&action=create');
      t.match(users[0], { response_status: 400, request_body: { username: 'x', password: AUDIT_REDACTED_VALUE } });
      const before = (await log('?limit=1000')).length;
      await call('POST', '/health/live', { as: admin });
      await call('POST', '/docs', { as: admin });
      t.equal((await log('?limit=1000')).length, before, 'no record for excluded paths');
    });

    t.test('users: password masked, resource id is the created user', async (t) => {
      const res = await call('POST', '/api/v1/users', {
        as: admin,
        body: { username: 'bob', email: 'bob@acme.test', password: 'correct horse', first_name: 'Bob', last_name: 'B' },
      });
      t.equal(res.status, 201);
      const [record] = await log(`?resource_type=users&resource_id=${res.body.id}`);
      t.match(record, { action: 'CREATE', resource_id: res.body.id, request_body: { password: AUDIT_REDACTED_VALUE, username: 'bob' } });
      const roles = await call('POST', `/api/v1/users/${res.body.id}/roles`, { as: admin, body: { role_name: 'viewer' } });
      t.equal(roles.status, 200);
      t.equal((await log(`?resource_id=${res.body.id}`)).length, 2, 'a role change is a change of the user');
    });

    t.test('filters, paging, limit bounds, tenants', async (t) => {
      const all = await log('?limit=1000');
      const times = all.map((r) => Date.parse(r.timestamp));
      t.same(times, [...times].sort((a, b) => b - a), 'sorted by timestamp descending');
      const byUser = await log('?user_id=oscar');
      t.ok(byUser.length > 0 && byUser.every((r) => r.user_id === 'oscar'));
      const deletes = await log('?action=DELETE');
      t.ok(deletes.length > 0 && deletes.every((r) => r.action === 'DELETE'));
      const page = await call('GET', '/api/v1/audit-log?limit=2&offset=1', { as: admin });
      t.same(page.body.map((r: { id: string }) => r.id), all.slice(1, 3).map((r) => r.id));
      t.equal(Number(page.headers['x-total-count']), all.length);
      for (const bad of ['limit=0', 'limit=1001', 'action=READ', 'resource_type=widgets', 'resource_id=nope', 'offset=-1']) {
        const res = await call('GET', `/api/v1/audit-log?${bad}`, { as: admin });
        t.equal(res.status, 400, bad);
        t.equal(res.body.error.code, 'VALIDATION_ERROR');
      }
      t.equal((await call('GET', '/api/v1/audit-log?limit=1000', { as: admin })).status, 200);
      t.equal((await log('', other)).length, 0, "another tenant's admin sees none of acme's records");
      t.equal((await call('GET', '/api/v1/audit-log?tenant_id=acme', { as: other })).status, 403);
      t.equal((await log('?tenant_id=acme&limit=1000', root)).length, all.length, 'a super-admin reads any tenant');
      t.equal((await call('GET', '/api/v1/audit-log', { as: operator })).status, 403, 'operators cannot read the audit log');
    });

    t.test('no API deletes audit records', async (t) => {
      const [first] = await log('');
      for (const path of ['/api/v1/audit-log', `/api/v1/audit-log/${first!.id}`]) {
        t.equal((await call('DELETE', path, { as: root })).status, 404, path);
      }
      t.equal((await log(`?limit=1000`)).some((r) => r.id === first!.id), true);
    });
  });
});
