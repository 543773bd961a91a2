// Development mode (AUTH_PROXY_ENABLED=false) through the Admin API: the dev-user sees and acts on the
// quickstart's `default` tenant, as the spec's "all operations allowed" says.
import t from 'tap';
import { forEachDatabase } from '@palisade/core/testing';
import { providerBody, startAdminApi, type Caller } from '../testing/admin-api.js';

const root: Caller = { user: 'root', groups: 'super-admin', tenant: 'platform' };

t.test('the dev-user acts on every tenant', async (t) => {
  await forEachDatabase(t, async (t, db) => {
    const prod = await startAdminApi(t, db);
    const demo = await prod.call('POST', '/api/v1/providers?tenant_id=default', { as: root, body: providerBody({ name: 'demo' }) });
    t.equal(demo.status, 201);
    const dev = await startAdminApi(t, db, { authProxyEnabled: false });

    const all = await dev.call('GET', '/api/v1/providers');
    t.equal(all.status, 200);
    t.ok(all.body.items.some((p: { id: string }) => p.id === demo.body.id), "a listing shows the default tenant's records");
    const scoped = await dev.call('GET', '/api/v1/providers?tenant_id=default');
    t.equal(scoped.status, 200, '?tenant_id=default is not 403');
    t.same(scoped.body.items.map((p: { tenant_id: string }) => p.tenant_id), ['default']);
    t.equal((await dev.call('GET', `/api/v1/providers/${demo.body.id}`)).status, 200);
    t.equal((await dev.call('PUT', `/api/v1/providers/${demo.body.id}`, { body: { priority: 7 } })).status, 200);
    const own = await dev.call('POST', '/api/v1/providers', { body: providerBody() });
    t.equal(own.body.tenant_id, 'dev-test', 'a create without tenant_id goes to its own tenant');
    t.equal((await dev.call('GET', '/api/v1/audit-log?tenant_id=default')).status, 200);
  });
});
