// The registry's own API (port 8000, internal): the resource routes with its tenant rule (X-Tenant-ID,
// no roles: the registry sits behind the internal token), plus a forced sync and a routing probe.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { useDocumentingSchemas } from '../admin-api/route-schema.js';
import { registerResourceRoutes, type ResourceAccess, type ResourceRouteDeps } from '../resources/routes.js';
import type { MatchResult } from './match.js';

/** The tenant of a registry call: X-Tenant-ID, else ?tenant_id, else the spec's `default`. */
export function tenantOf(request: FastifyRequest): string {
  const header = request.headers['x-tenant-id'];
  const fromHeader = Array.isArray(header) ? header[0] : header;
  const fromQuery = (request.query as Record<string, unknown> | undefined)?.tenant_id;
  return fromHeader || (typeof fromQuery === 'string' && fromQuery) || 'default';
}

const registryAccess: ResourceAccess = {
  listTenants: (request) => tenantOf(request),
  itemTenant: async (request) => tenantOf(request),
  createTenant: (request) => tenantOf(request),
  performedBy: (_request, asked) => asked ?? 'api',
};

export interface RegistryRouteDeps extends Omit<ResourceRouteDeps, 'access'> {
  /** Rebuilds and publishes the bundle now; resolves to its revision. */
  syncNow: () => Promise<string>;
  /** The provider (and active profile) a request would reach. */
  match: (body: unknown, tenantId: string) => Promise<MatchResult>;
}

export function registerRegistryRoutes(app: FastifyInstance, deps: RegistryRouteDeps): void {
  useDocumentingSchemas(app);
  registerResourceRoutes(app, { ...deps, access: registryAccess });
  app.post('/api/v1/sync/force', async () => ({ status: 'ok', revision: await deps.syncNow() }));
  app.post('/api/v1/match', async (request) => deps.match(request.body, tenantOf(request)));
}
