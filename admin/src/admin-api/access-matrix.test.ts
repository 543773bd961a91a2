// Every route of ADMIN_API_MATRIX × every role (and none) × own / other tenant, over real HTTP.
import { rm } from 'node:fs/promises';
import t from 'tap';
import { createSecretBox, ROLE_RANK, type RoleName } from '@palisade/core';
import { forOneDatabase } from '@palisade/core/testing';
import { PERMISSION_MIN_ROLE } from '../auth/permissions.js';
import { ADMIN_API_MATRIX, MATRIX_EXPORT_FILE, namesTenant } from '../testing/access-matrix.js';
import { standardRouteModules } from './standard-modules.js';
import { startAdminApi, type Caller } from '../testing/admin-api.js';

const OWN = 'acme';
const OTHER = 'globex';
const CALLERS: Array<{ role: RoleName | null; caller: Caller }> = [
  { role: 'viewer', caller: { user: 'vera', groups: 'viewer', tenant: OWN } },
  { role: 'operator', caller: { user: 'oscar', groups: 'operator,viewer', tenant: OWN } },
  { role: 'admin', caller: { user: 'alice', groups: 'admin', tenant: OWN } },
  { role: 'super-admin', caller: { user: 'root', groups: 'super-admin', tenant: OWN } },
  { role: null, caller: { user: 'nobody', groups: 'offline_access,user', tenant: OWN } },
];

function expected(role: RoleName | null, permission: keyof typeof PERMISSION_MIN_ROLE, ok: number, otherTenant: boolean): number {
  if (role === null) return 403;
  if (ROLE_RANK[role] < ROLE_RANK[PERMISSION_MIN_ROLE[permission]]) return 403;
  if (otherTenant && role !== 'super-admin') return 403;
  return ok;
}

t.test('the matrix has a row for every /api/v1 route of the Admin API', async (t) => {
  await forOneDatabase(t, async (t, db) => {
    const { api } = await startAdminApi(t, db, { routeModules: standardRouteModules({ db, secrets: createSecretBox('test-key') }) });
    const registered = api.routes.filter((r) => r.url.startsWith('/api/v1/') && r.method !== 'HEAD').map((r) => `${r.method} ${r.url}`);
    const rows = ADMIN_API_MATRIX.map((row) => `${row.method} ${row.route}`);
    t.same(registered.filter((r) => !rows.includes(r)), [], 'routes without a row');
    t.same(rows.filter((r) => !registered.includes(r)), [], 'rows without a route');
  });
});

t.test('role × tenant matrix', async (t) => {
  t.teardown(() => rm(MATRIX_EXPORT_FILE, { force: true }));
  await forOneDatabase(t, async (t, db) => {
    const { api, call } = await startAdminApi(t, db, { routeModules: standardRouteModules({ db, secrets: createSecretBox('test-key') }) });
    for (const row of ADMIN_API_MATRIX) {
      await t.test(`${row.method} ${row.route} (${row.permission})`, async (t) => {
        const anonymous = await row.prepare(api, OWN, false);
        t.equal((await call(row.method, anonymous.path, { body: anonymous.body, as: null })).status, 401, 'no identity: 401');
        for (const { role, caller } of CALLERS) {
          for (const other of row.tenantScoped === false ? [false] : [false, true]) {
            const tenant = other ? OTHER : OWN;
            const prepared = await row.prepare(api, tenant, other && namesTenant(row));
            const res = await call(row.method, prepared.path, { body: prepared.body, as: caller });
            const want = expected(role, row.permission, row.ok, other);
            t.equal(res.status, want, `${role ?? 'no role'} on ${other ? 'another' : 'its own'} tenant: ${want}${res.status !== want ? ` (${res.text.slice(0, 200)})` : ''}`);
            if (want === 403) t.equal(res.body?.error?.code, 'FORBIDDEN');
          }
        }
      });
    }
  });
});
