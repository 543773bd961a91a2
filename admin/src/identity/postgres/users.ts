// The built-in identity provider's user records: list, read, create, edit, enable and delete.
import { randomUUID } from 'node:crypto';
import type { Database } from '@palisade/core';
import type { IdentityProvider } from '../identity-provider.js';
import { hashPassword } from '../password.js';
import { endUserSessions } from '../sessions.js';
import { COLUMNS, toUser, type UserRow, type UserRows } from './rows.js';

export type UserAccounts = Pick<IdentityProvider, 'listUsers' | 'getUser' | 'createUser' | 'updateUser' | 'setEnabled' | 'deleteUser'>;

export function createUserAccounts(deps: { db: Database; rows: UserRows; now: () => Date; passwordCostLog2: number | undefined }): UserAccounts {
  const { db, rows, now } = deps;
  return {
    async listUsers(query) {
      const where = query.tenantIds ? 'WHERE tenant_id = ANY($1)' : '';
      const params: unknown[] = query.tenantIds ? [query.tenantIds] : [];
      const total = await db.query<{ n: string | number }>(`SELECT count(*) AS n FROM users ${where}`, params);
      const page = await db.query<UserRow>(
        `SELECT ${COLUMNS} FROM users ${where} ORDER BY lower(username) LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, query.limit, query.offset],
      );
      const roles = await rows.rolesOf(page.rows.map((r) => r.id));
      return { items: page.rows.map((r) => toUser(r, roles.get(r.id) ?? [])), total: Number(total.rows[0]?.n ?? 0) };
    },

    getUser: rows.getUser,

    async createUser(input) {
      const at = now();
      const row: UserRow = {
        id: randomUUID(),
        tenant_id: input.tenant_id,
        username: input.username,
        email: input.email,
        enabled: true,
        data: { firstName: input.first_name, lastName: input.last_name, emailVerified: false, createdTimestamp: at.getTime(), password: await hashPassword(input.password, deps.passwordCostLog2) },
      };
      await rows.guard(() =>
        db.query(`INSERT INTO users (${COLUMNS}, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $7)`, [
          row.id,
          row.tenant_id,
          row.username,
          row.email,
          row.enabled,
          JSON.stringify(row.data),
          at.toISOString(),
        ]),
      );
      return toUser(row, []);
    },

    async updateUser(id, patch) {
      const row = await rows.load(id);
      const next: UserRow = {
        ...row,
        username: patch.username ?? row.username,
        email: patch.email ?? row.email,
        data: { ...row.data, firstName: patch.first_name ?? row.data.firstName, lastName: patch.last_name ?? row.data.lastName },
      };
      // A new address has not been verified.
      if (patch.email !== undefined && patch.email.toLowerCase() !== row.email.toLowerCase()) next.data.emailVerified = false;
      await rows.store(next);
      return rows.getUser(id);
    },

    async setEnabled(id, enabled) {
      const row = await rows.load(id);
      await rows.store({ ...row, enabled });
      if (!enabled) await endUserSessions(db, id);
      return rows.getUser(id);
    },

    async deleteUser(id) {
      await rows.load(id);
      await db.query('DELETE FROM users WHERE id = $1', [id]);
      await endUserSessions(db, id);
    },
  };
}
