// IDENTITY_PROVIDER=external: users live in Keycloak, Entra ID, Okta or Dex, and roles and tenant come
// from their token claims (the proxy's forwarded headers). The user endpoints answer a clear 409 with
// a code instead of editing a local table nobody logs in with; the fixed role list stays readable.
import { PalisadeError } from '@palisade/core';
import type { IdentityProvider } from './identity-provider.js';
import { roleList } from './roles.js';

export function managedExternally(): never {
  throw new PalisadeError('USERS_MANAGED_EXTERNALLY', {
    message: 'Users are managed in the external identity provider (IDENTITY_PROVIDER=external): create, edit and assign roles there',
  });
}

export function createExternalIdentityProvider(): IdentityProvider {
  const refuse = async (): Promise<never> => managedExternally();
  return {
    external: true,
    listUsers: refuse,
    getUser: refuse,
    createUser: refuse,
    updateUser: refuse,
    setEnabled: refuse,
    deleteUser: refuse,
    userRoles: refuse,
    assignRole: refuse,
    removeRole: refuse,
    verifyPassword: refuse,
    passwordLogin: refuse,
    userIdForLogin: refuse,
    resetPassword: refuse,
    changePassword: refuse,
    listRoles: async () => roleList(),
  };
}
