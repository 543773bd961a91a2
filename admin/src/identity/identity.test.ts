// The user and role endpoints of the spec's table, with their error rows, over real HTTP; and the
// built-in identity provider's password hashing.
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { forEachDatabase } from '@palisade/core/testing';
import { startAdminApi, type Caller } from '../testing/admin-api.js';
import { hashPassword, verifyPasswordHash } from './password.js';
import { createPostgresIdentityProvider } from './postgres-identity.js';

const admin: Caller = { user: 'alice', groups: 'admin', tenant: 'acme' };
const operator: Caller = { user: 'oscar', groups: 'operator', tenant: 'acme' };
const foreignAdmin: Caller = { user: 'gina', groups: 'admin', tenant: 'globex' };
const root: Caller = { user: 'root', groups: 'super-admin', tenant: 'platform' };

const USER_FIELDS = ['id', 'username', 'email', 'firstName', 'lastName', 'enabled', 'emailVerified', 'createdTimestamp'];
const newUser = (over: Record<string, unknown> = {}) => {
  const tag = randomUUID().slice(0, 8);
  return { username: `user-${tag}`, email: `${tag}@acme.test`, password: 'correct horse', first_name: 'Ann', last_name: 'Lee', ...over };
};

t.test('scrypt hashes: salted per user, verified, parameters kept with the hash', async (t) => {
  const a = await hashPassword('correct horse');
  const b = await hashPassword('correct horse');
  t.not(a.salt, b.salt);
  t.not(a.hash, b.hash);
  t.equal(a.N, 2 ** 15);
  t.ok(await verifyPasswordHash('correct horse', a));
  t.notOk(await verifyPasswordHash('correct horsE', a));
  t.ok(await verifyPasswordHash('x-y-z-1234', await hashPassword('x-y-z-1234', 10)), 'a cheaper hash verifies with its own parameters');
});

t.test('users and roles over HTTP', async (t) => {
  await forEachDatabase(t, async (t, db) => {
    let clock = Date.parse('2031-05-01T10:00:00.000Z');
    const start = clock;
    const { call } = await startAdminApi(t, db, { now: () => new Date((clock += 1000)) });

    t.test('create: 201 with the user object, never the password; 400, 409, 403 rows', async (t) => {
      const body = newUser();
      const created = await call('POST', '/api/v1/users', { as: admin, body });
      t.equal(created.status, 201);
      for (const field of USER_FIELDS) t.ok(field in created.body, field);
      t.match(created.body, { username: body.username, email: body.email, firstName: 'Ann', lastName: 'Lee', enabled: true, emailVerified: false, tenant_id: 'acme', roles: [] });
      t.ok(created.body.createdTimestamp > start && created.body.createdTimestamp <= clock, 'createdTimestamp in Unix ms from the clock');
      t.notMatch(created.text, /password|scrypt|correct horse/, 'no hash or password in the answer');
      t.equal((await call('GET', `/api/v1/users/${created.body.id}`, { as: admin })).body.id, created.body.id);

      for (const [name, bad, path] of [
        ['short username', { username: 'ab' }, 'username'],
        ['short password', { password: 'seven77' }, 'password'],
        ['bad e-mail', { email: 'not-an-address' }, 'email'],
        ['missing first name', { first_name: undefined }, 'first_name'],
      ] as const) {
        const res = await call('POST', '/api/v1/users', { as: admin, body: newUser(bad) });
        t.equal(res.status, 400, name);
        t.equal(res.body.error.details[0].path, path, name);
      }
      const dupName = await call('POST', '/api/v1/users', { as: admin, body: newUser({ username: body.username.toUpperCase() }) });
      t.equal(dupName.status, 409, 'username exists (case-insensitive)');
      const dupMail = await call('POST', '/api/v1/users', { as: admin, body: newUser({ email: body.email }) });
      t.equal(dupMail.status, 409, 'e-mail exists');
      t.equal((await call('POST', '/api/v1/users', { as: operator, body: newUser() })).status, 403, 'caller lacks admin');
      t.equal((await call('POST', '/api/v1/users', { as: admin, body: newUser({ tenant_id: 'globex' }) })).status, 403, 'another tenant');
      t.equal((await call('POST', '/api/v1/users', { as: root, body: newUser({ tenant_id: 'globex' }) })).body.tenant_id, 'globex');
    });

    t.test('list, get, update, disable, enable, delete', async (t) => {
      const user = (await call('POST', '/api/v1/users', { as: admin, body: newUser() })).body;
      const list = await call('GET', '/api/v1/users', { as: admin });
      t.equal(list.status, 200);
      t.ok(Array.isArray(list.body), 'an array of user objects');
      t.ok(list.body.some((u: { id: string }) => u.id === user.id));
      t.ok(list.body.every((u: { tenant_id: string }) => u.tenant_id === 'acme'), "only the caller's tenant");
      t.notOk((await call('GET', '/api/v1/users', { as: foreignAdmin })).body.some((u: { id: string }) => u.id === user.id));
      t.equal((await call('GET', `/api/v1/users/${user.id}`, { as: foreignAdmin })).status, 403, "another tenant's user");
      t.equal((await call('GET', `/api/v1/users/${randomUUID()}`, { as: admin })).status, 404);
      t.equal((await call('GET', '/api/v1/users/not-a-uuid', { as: admin })).status, 404);

      const updated = await call('PUT', `/api/v1/users/${user.id}`, { as: admin, body: { first_name: 'Anna', email: `new-${user.email}` } });
      t.equal(updated.status, 200);
      t.match(updated.body, { firstName: 'Anna', lastName: 'Lee', email: `new-${user.email}`, emailVerified: false });
      t.equal((await call('PUT', `/api/v1/users/${user.id}`, { as: admin, body: { email: 'nope' } })).status, 400);
      const taken = (await call('POST', '/api/v1/users', { as: admin, body: newUser() })).body;
      t.equal((await call('PUT', `/api/v1/users/${user.id}`, { as: admin, body: { username: taken.username } })).status, 409);
      t.equal((await call('PUT', `/api/v1/users/${randomUUID()}`, { as: admin, body: { first_name: 'X' } })).status, 404);

      t.equal((await call('POST', `/api/v1/users/${user.id}/disable`, { as: admin })).body.enabled, false);
      t.equal((await call('POST', `/api/v1/users/${user.id}/enable`, { as: admin })).body.enabled, true);
      const gone = await call('DELETE', `/api/v1/users/${user.id}`, { as: admin });
      t.equal(gone.status, 204);
      t.equal(gone.text, '');
      t.equal((await call('GET', `/api/v1/users/${user.id}`, { as: admin })).status, 404);
      t.equal((await call('DELETE', `/api/v1/users/${user.id}`, { as: admin })).status, 404);
      const audit = await call('GET', `/api/v1/audit-log?resource_id=${user.id}`, { as: admin });
      const trail = audit.body.map((r: { action: string; response_status: number }) => `${r.action} ${r.response_status}`);
      t.same(trail, ['DELETE 404', 'DELETE 204', 'CREATE 200', 'CREATE 200', 'UPDATE 409', 'UPDATE 400', 'UPDATE 200', 'CREATE 201'], 'audit records of a deleted user are kept');
    });

    t.test('roles: list, assign (200, 400, 404, 409), remove (204, 404)', async (t) => {
      const roles = await call('GET', '/api/v1/roles', { as: admin });
      t.same(roles.body.map((r: { name: string }) => r.name).sort(), ['admin', 'operator', 'super-admin', 'viewer']);
      t.ok(roles.body.every((r: Record<string, unknown>) => typeof r.id === 'string' && typeof r.description === 'string'));

      const user = (await call('POST', '/api/v1/users', { as: admin, body: newUser() })).body;
      t.same((await call('GET', `/api/v1/users/${user.id}/roles`, { as: admin })).body, []);
      const assigned = await call('POST', `/api/v1/users/${user.id}/roles`, { as: admin, body: { role_name: 'operator' } });
      t.equal(assigned.status, 200);
      t.same(assigned.body, [{ id: 'operator', name: 'operator', composite: false, clientRole: false, containerId: 'palisade' }]);
      t.equal((await call('POST', `/api/v1/users/${user.id}/roles`, { as: admin, body: { role_name: 'operator' } })).status, 409, 'already assigned');
      const invalid = await call('POST', `/api/v1/users/${user.id}/roles`, { as: admin, body: { role_name: 'root' } });
      t.equal(invalid.status, 400, 'invalid role name');
      t.equal(invalid.body.error.details[0].path, 'role_name');
      t.equal((await call('POST', `/api/v1/users/${randomUUID()}/roles`, { as: admin, body: { role_name: 'viewer' } })).status, 404, 'user missing');
      t.equal((await call('POST', `/api/v1/users/${user.id}/roles`, { as: admin, body: { role_name: 'super-admin' } })).status, 403, 'only a super-admin grants super-admin');
      t.same((await call('GET', `/api/v1/users/${user.id}`, { as: admin })).body.roles, ['operator']);

      t.equal((await call('DELETE', `/api/v1/users/${user.id}/roles/viewer`, { as: admin })).status, 404, 'role not assigned');
      t.equal((await call('DELETE', `/api/v1/users/${user.id}/roles/bogus`, { as: admin })).status, 400, 'invalid role name');
      const removed = await call('DELETE', `/api/v1/users/${user.id}/roles/operator`, { as: admin });
      t.equal(removed.status, 204);
      t.same((await call('GET', `/api/v1/users/${user.id}/roles`, { as: admin })).body, []);
      t.equal((await call('GET', '/api/v1/roles', { as: operator })).status, 403);
    });

    t.test('the provider verifies passwords and refuses blocked users', async (t) => {
      const identity = createPostgresIdentityProvider({ db, passwordCostLog2: 10 });
      const user = await identity.createUser({ ...newUser(), tenant_id: 'acme' });
      t.equal((await identity.verifyPassword(user.username, 'correct horse'))?.id, user.id);
      t.equal((await identity.verifyPassword(user.email.toUpperCase(), 'correct horse'))?.id, user.id, 'by e-mail');
      t.equal(await identity.verifyPassword(user.username, 'wrong horse'), null);
      await identity.setEnabled(user.id, false);
      t.equal(await identity.verifyPassword(user.username, 'correct horse'), null, 'disabled');
      const row = await db.query<{ data: Record<string, unknown> }>('SELECT data FROM users WHERE id = $1', [user.id]);
      t.notMatch(JSON.stringify(row.rows[0]!.data), /correct horse/, 'the clear password is never stored');
    });
  });
});
