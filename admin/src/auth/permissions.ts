// Permission → the lowest role that holds it, from the spec's "Roles" table. Roles are ranked
// (viewer < operator < admin < super-admin) and rule 1 says the highest role applies, so a permission
// is "this role or above":
//
// | permission        | viewer | operator | admin | super-admin | spec row                                   |
// |-------------------|--------|----------|-------|-------------|--------------------------------------------|
// | read              |   ✓    |    ✓     |   ✓   |      ✓      | viewer reads providers … events, dashboard |
// | download-reports  |   ✓    |    ✓     |   ✓   |      ✓      | viewer downloads existing reports          |
// | write             |        |    ✓     |   ✓   |      ✓      | operator creates and edits                 |
// | generate-reports  |        |    ✓     |   ✓   |      ✓      | operator generates reports                 |
// | delete            |        |          |   ✓   |      ✓      | operator cannot delete resources           |
// | manage-users      |        |          |   ✓   |      ✓      | rule 4: user endpoints need admin          |
// | read-audit        |        |          |   ✓   |      ✓      | operator cannot read the audit log         |
// | manage-retention  |        |          |   ✓   |      ✓      | operator cannot change retention           |
//
// The tenant dimension (rule 3: only super-admin crosses tenants) is separate: see access-control.ts.
import { hasRoleAtLeast, type RoleName } from '@palisade/core';
import type { Permission } from './contract.js';

export const PERMISSION_MIN_ROLE: Readonly<Record<Permission, RoleName>> = {
  read: 'viewer',
  'download-reports': 'viewer',
  write: 'operator',
  'generate-reports': 'operator',
  delete: 'admin',
  'manage-users': 'admin',
  'read-audit': 'admin',
  'manage-retention': 'admin',
};

/** Whether a caller with `roles` holds `permission` (no role: nothing, rule 2). */
export function allows(roles: readonly RoleName[], permission: Permission): boolean {
  return hasRoleAtLeast(roles, PERMISSION_MIN_ROLE[permission]);
}
