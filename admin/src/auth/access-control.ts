// The AccessControl of contract.ts: identity from the forwarded headers (or the dev-user), permission
// by the role table of permissions.ts, and the tenant rules of the spec's "Roles" section:
// rule 2 — no known role → 403 on every call; rule 3 — another tenant → 403 unless super-admin.
import type { FastifyRequest, preHandlerHookHandler } from 'fastify';
import { PalisadeError } from '@palisade/core';
import type { AccessControl, Permission, Principal } from './contract.js';
import { allows } from './permissions.js';
import { DEV_USER, forwardedIdentity, type ForwardedIdentity } from './principal.js';
import { hasProxyProof } from './proxy-proof.js';

export interface AccessControlOptions {
  /** true (production): forwarded identity headers required; false: every call is the dev-user. */
  authProxyEnabled: boolean;
  /**
   * The secret shared with the authentication proxy (proxy-proof.ts). When set, forwarded headers
   * without a valid proof are ignored: the call is anonymous (401), whatever identity it claims.
   */
  proxySecret?: string | undefined;
}

/** What the Admin API app itself needs beyond the contract (audit records). */
export interface AdminAccessControl extends AccessControl {
  /** The caller as far as known — also for calls that were refused — or null without an identity. */
  identify(request: FastifyRequest): Principal | null;
  /** The tenant the call acted on (the last tenantFor answer), else the caller's own tenant. */
  actedTenant(request: FastifyRequest): string | null;
  /** Whether the caller crosses tenants (super-admin). */
  isSuperAdmin(request: FastifyRequest): boolean;
}

export function createAccessControl(options: AccessControlOptions): AdminAccessControl {
  // Per-request memo, keyed by the request object so it goes away with it.
  const identities = new WeakMap<FastifyRequest, ForwardedIdentity>();
  const acted = new WeakMap<FastifyRequest, string>();

  function identity(request: FastifyRequest): ForwardedIdentity {
    let found = identities.get(request);
    if (!found) {
      if (!options.authProxyEnabled) found = { kind: 'principal', principal: DEV_USER };
      else if (options.proxySecret && !hasProxyProof(options.proxySecret, request.headers)) found = { kind: 'anonymous' };
      else found = forwardedIdentity(request.headers);
      identities.set(request, found);
    }
    return found;
  }

  function principal(request: FastifyRequest): Principal {
    const found = identity(request);
    if (found.kind === 'principal') return found.principal;
    if (found.kind === 'no-tenant') throw new PalisadeError('FORBIDDEN', { message: { en: 'Access denied: the identity carries no tenant_id', ru: 'Доступ запрещён: в учётной записи нет tenant_id' } });
    throw new PalisadeError('UNAUTHENTICATED', {
      message: options.proxySecret
        ? 'Authentication required: no forwarded identity from the authentication proxy (headers missing or without its proof)'
        : 'Authentication required: the forwarded identity headers are missing',
    });
  }

  // Development mode (spec: "all operations allowed") lets the dev-user cross tenants as a super-admin
  // does, so the quickstart's `default` tenant is visible to it; its own tenant stays dev-test.
  const superAdmin = (p: Principal) => p.roles.includes('super-admin') || !options.authProxyEnabled;

  function tenantFor(request: FastifyRequest, requested?: string): string {
    const caller = principal(request);
    const tenant = requested === undefined || requested === '' ? caller.tenantId : requested;
    if (tenant !== caller.tenantId && !superAdmin(caller)) {
      throw new PalisadeError('FORBIDDEN', { message: { en: `Access denied: tenant ${tenant} is not your tenant`, ru: `Доступ запрещён: тенант ${tenant} — не ваш` } });
    }
    acted.set(request, tenant);
    return tenant;
  }

  return {
    require(permission: Permission): preHandlerHookHandler {
      return async (request) => {
        const caller = principal(request);
        if (caller.roles.length === 0) throw new PalisadeError('FORBIDDEN', { message: { en: 'Access denied: you have no role in the Admin API', ru: 'Доступ запрещён: у вас нет роли в Admin API' } });
        if (!allows(caller.roles, permission)) {
          throw new PalisadeError('FORBIDDEN', { message: { en: `Access denied: ${permission} needs a higher role than ${caller.role}`, ru: `Доступ запрещён: для ${permission} нужна роль выше, чем ${caller.role}` } });
        }
      };
    },
    principal,
    tenantFor,
    tenantsFor(request, requested) {
      if (requested !== undefined && requested !== '') return [tenantFor(request, requested)];
      const caller = principal(request);
      return superAdmin(caller) ? undefined : [tenantFor(request)];
    },
    identify(request) {
      const found = identity(request);
      if (found.kind === 'anonymous') return null;
      return found.kind === 'principal' ? found.principal : { ...found.principal, tenantId: '' };
    },
    actedTenant(request) {
      return acted.get(request) ?? (identity(request).kind === 'principal' ? principal(request).tenantId : null);
    },
    isSuperAdmin(request) {
      const found = identity(request);
      return found.kind === 'principal' ? superAdmin(found.principal) : found.kind === 'no-tenant' && found.principal.roles.includes('super-admin');
    },
  };
}
