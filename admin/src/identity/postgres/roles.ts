// The built-in identity provider's role assignments (`user_roles`).
import { PalisadeError, type Database } from '@palisade/core';
import type { IdentityProvider } from '../identity-provider.js';
import { roleList, roleRecord } from '../roles.js';
import type { UserRows } from './rows.js';

export type RoleAssignments = Pick<IdentityProvider, 'userRoles' | 'assignRole' | 'removeRole' | 'listRoles'>;

export function createRoleAssignments(deps: { db: Database; rows: UserRows }): RoleAssignments {
  const { db, rows } = deps;
  const userRoles = async (id: string) => (await rows.getUser(id)).roles.map(roleRecord);
  return {
    userRoles,

    async assignRole(id, role) {
      await rows.load(id);
      const inserted = await db.query('INSERT INTO user_roles (user_id, role_name) VALUES ($1, $2) ON CONFLICT DO NOTHING', [id, role]);
      if (inserted.rowCount === 0) throw new PalisadeError('CONFLICT', { message: { en: `role ${role} is already assigned to this user`, ru: `роль ${role} уже назначена этому пользователю` } });
      return userRoles(id);
    },

    async removeRole(id, role) {
      await rows.load(id);
      const removed = await db.query('DELETE FROM user_roles WHERE user_id = $1 AND role_name = $2', [id, role]);
      if (removed.rowCount === 0) throw new PalisadeError('NOT_FOUND', { message: { en: `role ${role} is not assigned to this user`, ru: `роль ${role} не назначена этому пользователю` } });
    },

    listRoles: async () => roleList(),
  };
}
