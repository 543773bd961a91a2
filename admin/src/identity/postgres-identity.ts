// The built-in identity provider: users and their roles in PostgreSQL (postgres/rows.ts), composed of
// its three concerns: the user records, the role assignments and the password logins.
import type { Database } from '@palisade/core';
import type { IdentityProvider } from './identity-provider.js';
import { createPasswordLogins } from './postgres/logins.js';
import { createRoleAssignments } from './postgres/roles.js';
import { createUserRows } from './postgres/rows.js';
import { createUserAccounts } from './postgres/users.js';

export interface PostgresIdentityDeps {
  db: Database;
  now?: () => Date;
  /** scrypt cost as log2 N (default 15); only tests lower it, to keep fixtures fast. */
  passwordCostLog2?: number;
}

export function createPostgresIdentityProvider(deps: PostgresIdentityDeps): IdentityProvider {
  const { db, passwordCostLog2 } = deps;
  const now = () => (deps.now ?? (() => new Date()))();
  const rows = createUserRows(db, now);
  return {
    ...createUserAccounts({ db, rows, now, passwordCostLog2 }),
    ...createRoleAssignments({ db, rows }),
    ...createPasswordLogins({ db, rows, passwordCostLog2 }),
  };
}
