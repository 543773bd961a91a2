// The Admin API's access hook for the resource routes. Permissions: read for GET; write for POST, PUT,
// state moves and health checks; delete for DELETE. Tenants: `?tenant_id=` (or a create body's
// tenant_id) naming another tenant is 403 unless super-admin; an id of another tenant's record is 403
// likewise; a super-admin's listing without tenant_id covers every tenant.
import type { FastifyRequest } from 'fastify';
import { IdParams } from '@palisade/core';
import type { AccessControl } from '../auth/contract.js';
import { TenantQuery, type ResourceAccess } from '../resources/routes.js';

export function adminResourceAccess(access: AccessControl): ResourceAccess {
  const requestedTenant = (request: FastifyRequest) => TenantQuery.parse(request.query).tenant_id;
  return {
    read: access.require('read'),
    write: access.require('write'),
    remove: access.require('delete'),
    listTenants: (request, requested) => access.tenantsFor(request, requested),
    /** The one asked for, else the record's own (another tenant's is 403 by access.tenantFor). */
    async itemTenant(request, records) {
      const requested = requestedTenant(request);
      if (requested) return access.tenantFor(request, requested);
      const record = await records.get(IdParams.parse(request.params).id);
      return access.tenantFor(request, record?.tenant_id);
    },
    /** The body's tenant_id, else the query's, else the caller's. */
    createTenant(request) {
      const body = request.body;
      const tenant = body !== null && typeof body === 'object' ? (body as Record<string, unknown>).tenant_id : undefined;
      const fromBody = typeof tenant === 'string' && tenant !== '' ? tenant : undefined;
      return access.tenantFor(request, fromBody ?? requestedTenant(request));
    },
    performedBy: (request, asked) => asked ?? access.principal(request).username,
  };
}
