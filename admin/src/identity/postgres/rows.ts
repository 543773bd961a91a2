// The `users` table (migration 001; profile fields and the password hash in its `data` column, never
// returned) and `user_roles`, as rows: what the built-in identity provider's parts read and write.
import { mapConstraintError, PalisadeError, User, type Database, type RoleName } from '@palisade/core';
import type { PasswordHash } from '../password.js';

export interface UserData {
  firstName: string;
  lastName: string;
  emailVerified: boolean;
  createdTimestamp: number;
  password: PasswordHash;
  /** Set by an administrator's temporary password: the next login must change it first. */
  passwordTemporary?: boolean;
}

export interface UserRow {
  id: string;
  tenant_id: string;
  username: string;
  email: string;
  enabled: boolean;
  data: UserData;
}

export const COLUMNS = 'id, tenant_id, username, email, enabled, data';

const CONFLICTS = {
  users_username_key: { en: 'a user with this username already exists', ru: 'пользователь с таким именем уже существует' },
  users_email_key: { en: 'a user with this e-mail already exists', ru: 'пользователь с таким e-mail уже существует' },
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The user record of the API (the password hash stays in the row). */
export function toUser(row: UserRow, roles: RoleName[]): User {
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

export interface UserRows {
  /** A write whose unique-key violation becomes CONFLICT naming the username or e-mail. */
  guard<T>(work: () => Promise<T>): Promise<T>;
  /** Each user's role names, by name; every id is a key (no roles: an empty list). */
  rolesOf(ids: string[]): Promise<Map<string, RoleName[]>>;
  /** The row of a user; NOT_FOUND when missing (an id that is not a UUID is missing too). */
  load(id: string): Promise<UserRow>;
  /** The user with its roles. */
  userOf(row: UserRow): Promise<User>;
  getUser(id: string): Promise<User>;
  /** Writes a loaded row back (updated_at = now). */
  store(row: UserRow): Promise<void>;
}

export function createUserRows(db: Database, now: () => Date): UserRows {
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

  async function load(id: string): Promise<UserRow> {
    const result = UUID.test(id) ? await db.query<UserRow>(`SELECT ${COLUMNS} FROM users WHERE id = $1`, [id]) : { rows: [] };
    const row = result.rows[0];
    if (!row) throw new PalisadeError('NOT_FOUND', { message: { en: `user ${id} not found`, ru: `пользователь ${id} не найден` } });
    return row;
  }

  const userOf = async (row: UserRow): Promise<User> => toUser(row, (await rolesOf([row.id])).get(row.id) ?? []);

  return {
    guard,
    rolesOf,
    load,
    userOf,
    getUser: async (id) => userOf(await load(id)),
    async store(row) {
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
    },
  };
}
