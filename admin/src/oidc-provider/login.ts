// One login check for the login form and the password grant: lockout first (a locked user or
// address is not even checked, so guessing cannot continue), then the password, then the outcome
// counted. The user's count is kept by user id, so a username and an e-mail share it.
import type { User } from '@palisade/core';
import type { IdentityProvider } from '../identity/identity-provider.js';
import type { Lockout } from './lockout.js';

export type LoginCheck =
  | { outcome: 'ok'; user: User; mustChangePassword: boolean }
  | { outcome: 'invalid' }
  | { outcome: 'disabled' }
  | { outcome: 'locked'; waitMs: number };

/** Longest login and password read; longer ones are refused without hashing. */
const MAX_LOGIN = 320;
const MAX_PASSWORD = 256;

export function createLoginChecker(deps: { identity: IdentityProvider; lockout: Lockout }) {
  return async function checkLogin(login: string, password: string, address: string): Promise<LoginCheck> {
    const name = login.trim();
    if (!name || !password || name.length > MAX_LOGIN || password.length > MAX_PASSWORD) return { outcome: 'invalid' };
    const userKey = (await deps.identity.userIdForLogin(name)) ?? `unknown:${name}`;
    const waitMs = await deps.lockout.waitFor(userKey, address);
    if (waitMs > 0) return { outcome: 'locked', waitMs };
    const result = await deps.identity.passwordLogin(name, password);
    if (result.outcome !== 'ok') {
      await deps.lockout.recordFailure(userKey, address);
      return result.outcome === 'disabled' ? { outcome: 'disabled' } : { outcome: 'invalid' };
    }
    await deps.lockout.recordSuccess(userKey);
    return result;
  };
}
export type LoginChecker = ReturnType<typeof createLoginChecker>;
