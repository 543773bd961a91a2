// The built-in identity provider: users in the `users` table (migration 001; profile fields and the
// password hash in its `data` column, never returned), roles in `user_roles`.
import { randomUUID } from 'node:crypto';
import {
  mapConstraintError,
  PalisadeError,
  ROLE_DESCRIPTIONS,
  ROLE_NAMES,
  User,
  type Database,
  type Role,
  type RoleListItem,
  type RoleName,
  type UserCreate,
  type UserUpdate,
} from '@palisade/core';
import type { IdentityProvider, LoginResult, UserListQuery } from './identity-provider.js';
import { endUserSessions } from './sessions.js';
import { hashPassword, verifyPasswordHash, type PasswordHash } from './password.js';

interface UserData {
  firstName: string;
  lastName: string;
  emailVerified: boolean;
  createdTimestamp: number;
  password: PasswordHash;
  /** Set by an administrator's temporary password: the next login must change it first. */
  passwordTemporary?: boolean;
}

interface UserRow {
  id: string;
  tenant_id: string;
  username: string;
  email: string;
  enabled: boolean;
  data: UserData;
}

const CONFLICTS = {
  users_username_key: { en: 'a user with this username already exists', ru: 'пользователь с таким именем уже существует' },
  users_email_key: { en: 'a user with this e-mail already exists', ru: 'пользователь с таким e-mail уже существует' },
};

/** Realm-level roles of one realm: the Keycloak shape of the spec's role record. */
const CONTAINER_ID = 'palisade';
export function roleRecord(name: RoleName): Role {
  return { id: name, name, composite: false, clientRole: false, containerId: CONTAINER_ID };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const COLUMNS = 'id, tenant_id, username, email, enabled, data';

export interface PostgresIdentityDeps {
  db: Database;
  now?: () => Date;
  /** scrypt cost as log2 N (default 15); only tests lower it, to keep fixtures fast. */
  passwordCostLog2?: number;
}

export function createPostgresIdentityProvider(deps: PostgresIdentityDeps): IdentityProvider {
  const { db } = deps;
  const now = () => (deps.now ?? (() => new Date()))();

  const guard = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw mapConstraintError(error, CONFLICTS);
    }
  };

  async function rolesOf(ids: string[]): Promise<Map<string, RoleName[]>> {
    const out = new Map<string, RoleName[]>(ids.map((id) => [id, []]));
    if (ids.length === 0) return out;
    const result = await db.query<{ user_id: string; role_name: RoleName }>('SELECT user_id, role_name FROM user_roles WHERE user_id = ANY($1) ORDER BY role_name', [ids]);
    for (const row of result.rows) out.get(row.user_id)?.push(row.role_name);
    return out;
  }

  function toUser(row: UserRow, roles: RoleName[]): User {
    return User.parse({
      id: row.id,
      username: row.username,
      email: row.email,
      firstName: row.data.firstName,
      lastName: row.data.lastName,
      enabled: row.enabled,
      emailVerified: row.data.emailVerified,
      createdTimestamp: row.data.createdTimestamp,
      tenant_id: row.tenant_id,
      roles,
    });
  }

  async function loadRow(id: string): Promise<UserRow> {
    const result = UUID.test(id) ? await db.query<UserRow>(`SELECT ${COLUMNS} FROM users WHERE id = $1`, [id]) : { rows: [] };
    const row = result.rows[0];
    if (!row) throw new PalisadeError('NOT_FOUND', { message: { en: `user ${id} not found`, ru: `пользователь ${id} не найден` } });
    return row;
  }

  async function getUser(id: string): Promise<User> {
    const row = await loadRow(id);
    return toUser(row, (await rolesOf([row.id])).get(row.id) ?? []);
  }

  async function store(row: UserRow): Promise<void> {
    await guard(() =>
      db.query('UPDATE users SET username = $2, email = $3, enabled = $4, data = $5::jsonb, updated_at = $6 WHERE id = $1', [
        row.id,
        row.username,
        row.email,
        row.enabled,
        JSON.stringify(row.data),
        now().toISOString(),
      ]),
    );
  }

  // A well-formed hash checked when the login is unknown, so both answers take as long.
  const decoy = hashPassword('decoy password, never matches', deps.passwordCostLog2);

  async function passwordLogin(login: string, password: string): Promise<LoginResult> {
    const result = await db.query<UserRow>(`SELECT ${COLUMNS} FROM users WHERE lower(username) = lower($1) OR lower(email) = lower($1) LIMIT 1`, [login]);
    const row = result.rows[0];
    if (!row) {
      await verifyPasswordHash(password, await decoy);
      return { outcome: 'invalid' };
    }
    if (!(await verifyPasswordHash(password, row.data.password))) return { outcome: 'invalid' };
    const user = toUser(row, (await rolesOf([row.id])).get(row.id) ?? []);
    if (!row.enabled) return { outcome: 'disabled', user };
    return { outcome: 'ok', user, mustChangePassword: row.data.passwordTemporary === true };
  }

  async function userRoles(id: string): Promise<Role[]> {
    const user = await getUser(id);
    return user.roles.map(roleRecord);
  }

  return {
    async listUsers(query: UserListQuery) {
      const where = query.tenantIds ? 'WHERE tenant_id = ANY($1)' : '';
      const params: unknown[] = query.tenantIds ? [query.tenantIds] : [];
      const total = await db.query<{ n: string | number }>(`SELECT count(*) AS n FROM users ${where}`, params);
      const rows = await db.query<UserRow>(
        `SELECT ${COLUMNS} FROM users ${where} ORDER BY lower(username) LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, query.limit, query.offset],
      );
      const roles = await rolesOf(rows.rows.map((r) => r.id));
      return { items: rows.rows.map((r) => toUser(r, roles.get(r.id) ?? [])), total: Number(total.rows[0]?.n ?? 0) };
    },

    getUser,

    async createUser(input: UserCreate & { tenant_id: string }) {
      const at = now();
      const row: UserRow = {
        id: randomUUID(),
        tenant_id: input.tenant_id,
        username: input.username,
        email: input.email,
        enabled: true,
        data: { firstName: input.first_name, lastName: input.last_name, emailVerified: false, createdTimestamp: at.getTime(), password: await hashPassword(input.password, deps.passwordCostLog2) },
      };
      await guard(() =>
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

    async updateUser(id: string, patch: UserUpdate) {
      const row = await loadRow(id);
      const next: UserRow = {
        ...row,
        username: patch.username ?? row.username,
        email: patch.email ?? row.email,
        data: { ...row.data, firstName: patch.first_name ?? row.data.firstName, lastName: patch.last_name ?? row.data.lastName },
      };
      // A new address has not been verified.
      if (patch.email !== undefined && patch.email.toLowerCase() !== row.email.toLowerCase()) next.data.emailVerified = false;
      await store(next);
      return getUser(id);
    },

    async setEnabled(id: string, enabled: boolean) {
      const row = await loadRow(id);
      await store({ ...row, enabled });
      if (!enabled) await endUserSessions(db, id);
      return getUser(id);
    },

    async deleteUser(id: string) {
      await loadRow(id);
      await db.query('DELETE FROM users WHERE id = $1', [id]);
      await endUserSessions(db, id);
    },

    userRoles,

    async assignRole(id: string, role: RoleName) {
      await loadRow(id);
      const inserted = await db.query('INSERT INTO user_roles (user_id, role_name) VALUES ($1, $2) ON CONFLICT DO NOTHING', [id, role]);
      if (inserted.rowCount === 0) throw new PalisadeError('CONFLICT', { message: { en: `role ${role} is already assigned to this user`, ru: `роль ${role} уже назначена этому пользователю` } });
      return userRoles(id);
    },

    async removeRole(id: string, role: RoleName) {
      await loadRow(id);
      const removed = await db.query('DELETE FROM user_roles WHERE user_id = $1 AND role_name = $2', [id, role]);
      if (removed.rowCount === 0) throw new PalisadeError('NOT_FOUND', { message: { en: `role ${role} is not assigned to this user`, ru: `роль ${role} не назначена этому пользователю` } });
    },

    async listRoles(): Promise<RoleListItem[]> {
      return ROLE_NAMES.map((name) => ({ id: name, name, description: ROLE_DESCRIPTIONS[name] }));
    },

    passwordLogin,

    async userIdForLogin(login: string) {
      const result = await db.query<{ id: string }>('SELECT id FROM users WHERE lower(username) = lower($1) OR lower(email) = lower($1) LIMIT 1', [login]);
      return result.rows[0]?.id ?? null;
    },

    async verifyPassword(login: string, password: string) {
      const result = await passwordLogin(login, password);
      return result.outcome === 'ok' ? result.user : null;
    },

    async resetPassword(id: string, password: string, temporary: boolean) {
      const row = await loadRow(id);
      await store({ ...row, data: { ...row.data, password: await hashPassword(password, deps.passwordCostLog2), passwordTemporary: temporary } });
    },

    async changePassword(id: string, password: string) {
      const row = await loadRow(id);
      if (await verifyPasswordHash(password, row.data.password)) {
        throw new PalisadeError('CONFLICT', { message: { en: 'the new password must differ from the current one', ru: 'новый пароль должен отличаться от текущего' } });
      }
      await store({ ...row, data: { ...row.data, password: await hashPassword(password, deps.passwordCostLog2), passwordTemporary: false } });
    },
  };
}
