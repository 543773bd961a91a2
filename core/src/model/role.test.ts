import t from 'tap';
import { ROLE_NAMES, Role, RoleAssignment, RoleListItem, hasRoleAtLeast, highestRole } from './role.js';
import { issuePaths, issuesOf, parseOk } from '../testing/model.js';

t.test('role names', async (t) => {
  t.same([...ROLE_NAMES], ['admin', 'operator', 'viewer', 'super-admin']);
  for (const role_name of ROLE_NAMES) t.same(issuePaths(RoleAssignment, { role_name }), [], role_name);
  const bad = issuesOf(RoleAssignment, { role_name: 'root' });
  t.same(bad.map((i) => i.path), [['role_name']]);
  t.match(bad[0]?.message, /invalid role name/);
});

t.test('the highest privilege applies', async (t) => {
  t.equal(highestRole(['viewer', 'admin']), 'admin');
  t.equal(highestRole(['operator', 'viewer']), 'operator');
  t.equal(highestRole(['admin', 'super-admin']), 'super-admin');
  t.equal(highestRole([' Operator ']), 'operator');
  t.equal(highestRole(['user', 'offline_access']), null);
  t.equal(highestRole([]), null);
  t.ok(hasRoleAtLeast(['viewer', 'operator'], 'operator'));
  t.notOk(hasRoleAtLeast(['viewer'], 'operator'));
  t.ok(hasRoleAtLeast(['super-admin'], 'admin'));
  t.notOk(hasRoleAtLeast([], 'viewer'));
});

t.test('role records', async (t) => {
  const role = { id: 'r1', name: 'admin', composite: false, clientRole: false, containerId: 'realm-1' };
  t.same(parseOk(Role, role), role);
  t.same(issuePaths(Role, { ...role, composite: 'no' }), ['composite']);
  t.same(parseOk(RoleListItem, { id: 'r1', name: 'admin' }), { id: 'r1', name: 'admin', description: null });
});
