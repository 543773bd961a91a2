import t from 'tap';
import { forEachDatabase } from '@palisade/core/testing';
import { startAdminApi } from '../testing/admin-api.js';
import { adminOpenApiDocument } from '../admin-api/openapi-document.js';

t.test('GET /api/v1/me answers the forwarded caller with its roles, tenant and permissions', async (t) => {
  await forEachDatabase(t, async (t, db) => {
    const { call } = await startAdminApi(t, db);
    const viewer = await call('GET', '/api/v1/me', { as: { user: 'vera', groups: 'viewer,offline_access', tenant: 'acme', email: 'vera@acme.test' } });
    t.equal(viewer.status, 200);
    t.same(viewer.body, { username: 'vera', email: 'vera@acme.test', roles: ['viewer'], role: 'viewer', tenant: 'acme', is_super_admin: false, permissions: ['read', 'download-reports'] });
    const root = await call('GET', '/api/v1/me', { as: { user: 'root', groups: 'operator,super-admin', tenant: 'acme' } });
    t.equal(root.body.role, 'super-admin');
    t.equal(root.body.is_super_admin, true);
    t.ok(root.body.permissions.includes('manage-users'));
    t.equal((await call('GET', '/api/v1/me', { as: null })).status, 401, 'no identity: 401');
    t.equal((await call('GET', '/api/v1/me', { as: { user: 'nobody', groups: 'user', tenant: 'acme' } })).status, 403, 'no role: 403');
  });
});

t.test('in development mode /me is the dev-user with every permission', async (t) => {
  await forEachDatabase(t, async (t, db) => {
    const { call } = await startAdminApi(t, db, { authProxyEnabled: false });
    const me = await call('GET', '/api/v1/me', { as: null });
    t.equal(me.body.username, 'dev-user');
    t.equal(me.body.tenant, 'dev-test');
    t.equal(me.body.role, 'admin');
    t.ok(me.body.permissions.includes('manage-retention'));
  });
});

t.test('the OpenAPI document is built without a database and lists every route of a running Admin API', async (t) => {
  const doc = (await adminOpenApiDocument()) as { paths: Record<string, unknown> };
  t.ok(doc.paths['/api/v1/me'], '/me is documented');
  t.ok(doc.paths['/api/v1/exporters/{id}/test'], 'standard modules are documented');
  t.notOk(doc.paths['/openapi.json'], 'the docs routes are hidden');
});
