// What every Admin API route needs from authentication and authorization (spec, "Authentication" and
// "Roles"): who is calling, whether the caller's roles allow the action, and which tenant the call
// acts on. The auth plugin implements it; resource route modules receive it as a dependency, so no
// module decides access by itself.
import type { FastifyRequest, preHandlerHookHandler } from 'fastify';
import type { RoleName } from '@palisade/core';

/** The caller, built from the forwarded identity headers (or the dev-user in development mode). */
export interface Principal {
  /** The user's id or, for forwarded identities, the preferred username. */
  userId: string;
  username: string;
  email: string;
  /** Known role names among the caller's groups; empty = no access (403 everywhere). */
  roles: RoleName[];
  /** The highest of `roles`, or null. Recorded in audit records as user_role. */
  role: RoleName | null;
  tenantId: string;
}

/**
 * What a route may need, mapped to roles by the spec's table:
 * read — viewer and up; write (create, edit, state moves, tests) — operator and up; delete — admin;
 * generate-reports — operator; download-reports — viewer; users, audit, retention — admin.
 */
export const PERMISSIONS = ['read', 'write', 'delete', 'generate-reports', 'download-reports', 'manage-users', 'read-audit', 'manage-retention'] as const;
export type Permission = (typeof PERMISSIONS)[number];

export interface AccessControl {
  /** A preHandler: 401 UNAUTHENTICATED without an identity, 403 FORBIDDEN without the permission. */
  require(permission: Permission): preHandlerHookHandler;
  /** The caller of a request that passed `require` (throws UNAUTHENTICATED otherwise). */
  principal(request: FastifyRequest): Principal;
  /**
   * The tenant a call acts on: `requested` (a tenant_id query or body field) when given — 403 FORBIDDEN
   * when it is another tenant and the caller is not super-admin — else the caller's own tenant.
   */
  tenantFor(request: FastifyRequest, requested?: string): string;
  /**
   * The tenants a listing may show: [the caller's] normally; for a super-admin without `requested`,
   * undefined (all tenants).
   */
  tenantsFor(request: FastifyRequest, requested?: string): string[] | undefined;
}

/** What a resource's route module gets from the Admin API app that mounts it. */
export interface AdminRouteContext {
  access: AccessControl;
  /** The Admin API's clock (retention and dashboards are tested with a controllable one). */
  now(): Date;
}
