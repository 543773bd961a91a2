// The built-in identity provider's passwords: logins by username or e-mail, and password changes.
import { PalisadeError, type Database } from '@palisade/core';
import type { IdentityProvider, LoginResult } from '../identity-provider.js';
import { hashPassword, verifyPasswordHash } from '../password.js';
import { COLUMNS, type UserRow, type UserRows } from './rows.js';

export type PasswordLogins = Pick<IdentityProvider, 'passwordLogin' | 'userIdForLogin' | 'verifyPassword' | 'resetPassword' | 'changePassword'>;

export function createPasswordLogins(deps: { db: Database; rows: UserRows; passwordCostLog2: number | undefined }): PasswordLogins {
  const { db, rows } = deps;
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
    const user = await rows.userOf(row);
    if (!row.enabled) return { outcome: 'disabled', user };
    return { outcome: 'ok', user, mustChangePassword: row.data.passwordTemporary === true };
  }

  return {
    passwordLogin,

    async userIdForLogin(login) {
      const result = await db.query<{ id: string }>('SELECT id FROM users WHERE lower(username) = lower($1) OR lower(email) = lower($1) LIMIT 1', [login]);
      return result.rows[0]?.id ?? null;
    },

    async verifyPassword(login, password) {
      const result = await passwordLogin(login, password);
      return result.outcome === 'ok' ? result.user : null;
    },

    async resetPassword(id, password, temporary) {
      const row = await rows.load(id);
      await rows.store({ ...row, data: { ...row.data, password: await hashPassword(password, deps.passwordCostLog2), passwordTemporary: temporary } });
    },

    async changePassword(id, password) {
      const row = await rows.load(id);
      if (await verifyPasswordHash(password, row.data.password)) {
        throw new PalisadeError('CONFLICT', { message: { en: 'the new password must differ from the current one', ru: 'новый пароль должен отличаться от текущего' } });
      }
      await rows.store({ ...row, data: { ...row.data, password: await hashPassword(password, deps.passwordCostLog2), passwordTemporary: false } });
    },
  };
}
