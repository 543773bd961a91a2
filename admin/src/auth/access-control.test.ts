import t from 'tap';
import Fastify from 'fastify';
import { PERMISSIONS, type Permission } from './contract.js';
import { createAccessControl } from './access-control.js';
import { allows, PERMISSION_MIN_ROLE } from './permissions.js';
import { DEV_USER, forwardedIdentity, rolesOf } from './principal.js';

t.test('permission table: rank-based, highest role wins (rule 1)', async (t) => {
  const table: Record<Permission, [viewer: boolean, operator: boolean, admin: boolean]> = {
    read: [true, true, true],
    'download-reports': [true, true, true],
    write: [false, true, true],
    'generate-reports': [false, true, true],
    delete: [false, false, true],
    'manage-users': [false, false, true],
    'read-audit': [false, false, true],
    'manage-retention': [false, false, true],
  };
  t.same(Object.keys(PERMISSION_MIN_ROLE).sort(), [...PERMISSIONS].sort());
  for (const permission of PERMISSIONS) {
    const [viewer, operator, adminRole] = table[permission];
    t.equal(allows(['viewer'], permission), viewer, `viewer ${permission}`);
    t.equal(allows(['operator'], permission), operator, `operator ${permission}`);
    t.equal(allows(['admin'], permission), adminRole, `admin ${permission}`);
    t.equal(allows(['super-admin'], permission), true, `super-admin ${permission}`);
    t.equal(allows(['viewer', 'admin'], permission), true, `viewer+admin ${permission}`);
    t.equal(allows([], permission), false, `no role ${permission}`);
  }
});

t.test('forwarded headers', async (t) => {
  t.same(forwardedIdentity({}), { kind: 'anonymous' });
  const full = forwardedIdentity({
    'x-forwarded-user': 'alice',
    'x-forwarded-email': 'alice@acme.test',
    'x-forwarded-groups': 'Viewer, admin,unknown',
    'x-forwarded-preferred-username': 'alice',
    'x-forwarded-tenant-id': 'acme',
  });
  t.same(full, { kind: 'principal', principal: { userId: 'alice', username: 'alice', email: 'alice@acme.test', roles: ['viewer', 'admin'], role: 'admin', tenantId: 'acme' } });
  t.equal(forwardedIdentity({ 'x-forwarded-user': 'bob' }).kind, 'no-tenant');
  t.same(rolesOf(['user', 'offline_access']), []);
  t.match(DEV_USER, { username: 'dev-user', roles: ['admin'], role: 'admin', tenantId: 'dev-test' });
  t.match(DEV_USER.email, /@/);
});

t.test('require, tenantFor and tenantsFor on requests', async (t) => {
  const access = createAccessControl({ authProxyEnabled: true });
  const app = Fastify();
  t.teardown(() => app.close());
  app.get('/write', { preHandler: access.require('write') }, async (request) => ({ tenant: access.tenantFor(request, (request.query as { tenant?: string }).tenant) }));
  app.get('/list', { preHandler: access.require('read') }, async (request) => ({ tenants: access.tenantsFor(request, (request.query as { tenant?: string }).tenant) ?? 'all' }));
  const as = (groups: string, tenant = 'acme') => ({ 'x-forwarded-user': 'u', 'x-forwarded-groups': groups, 'x-forwarded-tenant-id': tenant });
  const get = async (url: string, headers: Record<string, string> = {}) => {
    const res = await app.inject({ url, headers });
    return { status: res.statusCode, body: res.json() };
  };
  t.equal((await get('/write')).status, 401);
  t.equal((await get('/write', as('viewer'))).status, 403);
  t.same((await get('/write', as('operator'))).body, { tenant: 'acme' });
  t.equal((await get('/write?tenant=globex', as('admin'))).status, 403, 'rule 3');
  t.same((await get('/write?tenant=globex', as('super-admin'))).body, { tenant: 'globex' });
  t.same((await get('/list', as('viewer'))).body, { tenants: ['acme'] });
  t.same((await get('/list', as('super-admin'))).body, { tenants: 'all' });
  t.same((await get('/list?tenant=globex', as('super-admin'))).body, { tenants: ['globex'] });
  t.equal((await get('/list?tenant=globex', as('viewer'))).status, 403);

  const dev = createAccessControl({ authProxyEnabled: false });
  const devApp = Fastify();
  t.teardown(() => devApp.close());
  devApp.get('/', { preHandler: dev.require('manage-users') }, async (request) => dev.principal(request));
  const res = await devApp.inject({ url: '/' });
  t.equal(res.statusCode, 200, 'development mode: the dev-user, admin');
  t.equal(res.json().username, 'dev-user');

  // Development mode: the dev-user acts on every tenant, as a super-admin does.
  const devTenants = Fastify();
  t.teardown(() => devTenants.close());
  devTenants.get('/list', { preHandler: dev.require('read') }, async (request) => ({ tenants: dev.tenantsFor(request, (request.query as { tenant?: string }).tenant) ?? 'all' }));
  devTenants.get('/write', { preHandler: dev.require('write') }, async (request) => ({ tenant: dev.tenantFor(request, (request.query as { tenant?: string }).tenant) }));
  t.same((await devTenants.inject({ url: '/list' })).json(), { tenants: 'all' }, 'a listing covers every tenant');
  t.same((await devTenants.inject({ url: '/list?tenant=default' })).json(), { tenants: ['default'] }, '?tenant_id=default is not 403');
  t.same((await devTenants.inject({ url: '/write?tenant=default' })).json(), { tenant: 'default' });
  t.same((await devTenants.inject({ url: '/write' })).json(), { tenant: 'dev-test' }, 'its own tenant stays the default of a create');
});
