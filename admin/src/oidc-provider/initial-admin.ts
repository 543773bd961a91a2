// The initial administrator (spec: ADMIN_USER_EMAIL / ADMIN_USER_PASSWORD, tenant attribute set, role
// admin), created once on the first start: a marker row remembers it, so an administrator who later
// deletes or renames that account does not see it come back at the next restart.
import { randomBytes } from 'node:crypto';
import type { Adapter } from 'oidc-provider';
import type { IdentityProvider } from '../identity/identity-provider.js';

export interface InitialAdmin {
  email: string;
  /** Only when it was generated now: shown once, never stored in clear. */
  generatedPassword?: string;
  created: boolean;
}

export async function ensureInitialAdmin(deps: {
  identity: IdentityProvider;
  setup: Adapter;
  email: string;
  username: string;
  password: string | undefined;
  tenantId: string;
}): Promise<InitialAdmin> {
  if (await deps.setup.find('initial-admin')) return { email: deps.email, created: false };
  const generatedPassword = deps.password ? undefined : randomBytes(15).toString('base64url');
  const password = deps.password ?? generatedPassword!;
  const existing = await deps.identity.userIdForLogin(deps.email);
  if (!existing) {
    const user = await deps.identity.createUser({ username: deps.username, email: deps.email, password, first_name: 'Palisade', last_name: 'Administrator', tenant_id: deps.tenantId });
    await deps.identity.assignRole(user.id, 'admin');
  }
  await deps.setup.upsert('initial-admin', { email: deps.email, at: Date.now() }, 0);
  return { email: deps.email, created: !existing, ...(generatedPassword && !existing ? { generatedPassword } : {}) };
}
