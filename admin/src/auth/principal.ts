// Who is calling (spec "Authentication"): in production the authentication proxy forwards the JWT's
// claims as X-Forwarded-* headers; in development every call is the built-in dev-user.
import type { IncomingHttpHeaders } from 'node:http';
import { highestRole, isRoleName, type RoleName } from '@palisade/core';
import type { Principal } from './contract.js';

/** Spec: username dev-user, a development e-mail, groups admin and user, tenant dev-test. */
export const DEV_USER_GROUPS = ['admin', 'user'] as const;
export const DEV_USER: Principal = Object.freeze({
  userId: 'dev-user',
  username: 'dev-user',
  email: 'dev-user@palisade.localhost',
  roles: rolesOf(DEV_USER_GROUPS),
  role: highestRole(DEV_USER_GROUPS),
  tenantId: 'dev-test',
});

/** Known role names among the groups (case-insensitive, duplicates dropped); other groups grant nothing. */
export function rolesOf(groups: Iterable<string>): RoleName[] {
  const out = new Set<RoleName>();
  for (const raw of groups) {
    const name = raw.trim().toLowerCase();
    if (isRoleName(name)) out.add(name);
  }
  return [...out];
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  const trimmed = first?.trim();
  return trimmed ? trimmed : undefined;
}

export type ForwardedIdentity =
  | { kind: 'principal'; principal: Principal }
  /** No user header: the proxy did not authenticate this call (401). */
  | { kind: 'anonymous' }
  /** A user without a tenant claim cannot act on any tenant's data (403). */
  | { kind: 'no-tenant'; principal: Omit<Principal, 'tenantId'> };

/**
 * The caller from the forwarded headers. The user is X-Forwarded-Preferred-Username, else
 * X-Forwarded-User (both carry preferred_username); X-Forwarded-Groups is comma-separated.
 */
export function forwardedIdentity(headers: IncomingHttpHeaders): ForwardedIdentity {
  const username = header(headers, 'x-forwarded-preferred-username') ?? header(headers, 'x-forwarded-user');
  if (!username) return { kind: 'anonymous' };
  const groups = (header(headers, 'x-forwarded-groups') ?? '').split(',').filter((g) => g.trim() !== '');
  const roles = rolesOf(groups);
  const base = { userId: username, username, email: header(headers, 'x-forwarded-email') ?? '', roles, role: highestRole(roles) };
  const tenantId = header(headers, 'x-forwarded-tenant-id');
  return tenantId ? { kind: 'principal', principal: { ...base, tenantId } } : { kind: 'no-tenant', principal: base };
}
