// Brute-force protection of the login form and the password grant, counted per user and per client
// address: after `failures` misses in a row a key is locked for `waitMs`, doubling with each further
// miss up to `maxWaitMs` (Keycloak's temporary lockout). A success clears the user's count only, so
// that an attacker cannot reset an address's count by logging in to an account of their own. Counts
// older than `resetAfterMs` start again from zero. Kept in the database: every replica sees them.
import { backoffDelay, type Database } from '@palisade/core';

export interface LockoutPolicy {
  userFailures: number;
  addressFailures: number;
  waitMs: number;
  maxWaitMs: number;
  resetAfterMs: number;
}

export const DEFAULT_LOCKOUT: LockoutPolicy = { userFailures: 5, addressFailures: 20, waitMs: 60_000, maxWaitMs: 15 * 60_000, resetAfterMs: 12 * 3600_000 };

export interface Lockout {
  /** Milliseconds until the user or the address may try again; 0 when neither is locked. */
  waitFor(userKey: string, address: string): Promise<number>;
  recordFailure(userKey: string, address: string): Promise<void>;
  recordSuccess(userKey: string): Promise<void>;
}

export function createLockout(deps: { db: Database; policy?: LockoutPolicy; now?: () => Date }): Lockout {
  const policy = deps.policy ?? DEFAULT_LOCKOUT;
  const now = () => (deps.now ?? (() => new Date()))();
  const keys = (userKey: string, address: string) => [`user:${userKey.toLowerCase()}`, `address:${address}`];

  async function fail(key: string, threshold: number, at: Date): Promise<void> {
    const reset = new Date(at.getTime() - policy.resetAfterMs).toISOString();
    const counted = await deps.db.query<{ failures: number }>(
      `INSERT INTO login_failures (key, failures, last_failure_at) VALUES ($1, 1, $2)
       ON CONFLICT (key) DO UPDATE SET
         failures = CASE WHEN login_failures.last_failure_at < $3 THEN 1 ELSE login_failures.failures + 1 END,
         last_failure_at = EXCLUDED.last_failure_at
       RETURNING failures`,
      [key, at.toISOString(), reset],
    );
    const failures = Number(counted.rows[0]?.failures ?? 0);
    if (failures < threshold) return;
    const wait = backoffDelay(failures - threshold, { initialMs: policy.waitMs, maxMs: policy.maxWaitMs });
    await deps.db.query('UPDATE login_failures SET locked_until = $2 WHERE key = $1', [key, new Date(at.getTime() + wait).toISOString()]);
  }

  return {
    async waitFor(userKey, address) {
      const at = now();
      const result = await deps.db.query<{ locked_until: string | Date | null }>('SELECT locked_until FROM login_failures WHERE key = ANY($1)', [keys(userKey, address)]);
      let wait = 0;
      for (const row of result.rows) if (row.locked_until) wait = Math.max(wait, new Date(row.locked_until).getTime() - at.getTime());
      return wait;
    },
    async recordFailure(userKey, address) {
      const at = now();
      const [user, addr] = keys(userKey, address) as [string, string];
      await fail(user, policy.userFailures, at);
      await fail(addr, policy.addressFailures, at);
    },
    async recordSuccess(userKey) {
      await deps.db.query('DELETE FROM login_failures WHERE key = $1', [keys(userKey, '')[0]]);
    },
  };
}
