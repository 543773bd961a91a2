// The claims of the spec's realm: preferred_username, email, groups (the role names) and tenant_id
// (Keycloak's `tenant-id-mapper`), in ID tokens, JWT access tokens and userinfo.
import type { User } from '@palisade/core';

/** Scope → claims. groups and tenant_id come with `openid` itself, as the realm's mappers add them to every token. */
export const SCOPE_CLAIMS = {
  openid: ['sub', 'groups', 'tenant_id'],
  profile: ['preferred_username', 'name', 'given_name', 'family_name'],
  email: ['email', 'email_verified'],
};

export function userClaims(user: User): Record<string, unknown> {
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ');
  return {
    sub: user.id,
    preferred_username: user.username,
    email: user.email,
    email_verified: user.emailVerified,
    ...(name ? { name } : {}),
    ...(user.firstName ? { given_name: user.firstName } : {}),
    ...(user.lastName ? { family_name: user.lastName } : {}),
    groups: [...user.roles],
    ...(user.tenant_id ? { tenant_id: user.tenant_id } : {}),
  };
}

/** What a JWT access token for the Admin API carries besides the standard claims. */
export function accessTokenClaims(user: User): Record<string, unknown> {
  return { preferred_username: user.username, email: user.email, groups: [...user.roles], ...(user.tenant_id ? { tenant_id: user.tenant_id } : {}) };
}
