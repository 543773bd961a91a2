// The providers' routes: CRUD, the lifecycle moves, a health check now.
import { z } from 'zod';
import { IdParams, Provider, ProviderCreate, ProviderHealthCheck, ProviderUpdate, type ResourceStore } from '@palisade/core';
import { routeSchema } from '../admin-api/route-schema.js';
import type { ProviderOperations } from '../registry/providers.js';
import { registerCrudRoutes, registerLifecycleMoves } from './crud-routes.js';
import { StatusListQuery, TenantQuery, type ResourceRouteKit } from './route-kit.js';

/** A check now of one provider of a tenant (the registry's health checker). */
export type CheckHealth = (providerId: string, tenantId: string, performedBy: string) => Promise<ProviderHealthCheck>;

const HealthQuery = TenantQuery.extend({ performed_by: z.string().min(1).max(255).optional() });

export function registerProviderRoutes(kit: ResourceRouteKit, providers: ProviderOperations, store: ResourceStore, checkHealth: CheckHealth): void {
  const doc = { path: '/api/v1/providers', tags: ['providers'], records: store.providers, model: Provider };
  registerCrudRoutes(kit, {
    ...doc,
    summaries: { list: 'List providers (upstream secrets masked)', create: 'Create a provider (DRAFT)', get: 'Get a provider', update: 'Update a provider', delete: 'Delete a provider' },
    descriptions: { update: 'provider_type and match_type are immutable; an ARCHIVED provider is read-only (409); an ACTIVE one applies the change at once.' },
    listQuery: StatusListQuery,
    createBody: ProviderCreate,
    updateBody: ProviderUpdate,
    operations: providers,
  });
  registerLifecycleMoves(kit, { ...doc, noun: 'a provider' }, providers);
  kit.app.post('/api/v1/providers/:id/health-check', {
    ...kit.write,
    schema: routeSchema({ tags: doc.tags, summary: 'Run a health check now', description: 'The result is also stored on the provider (health_status, health_latency_ms, health_error_message, health_checked_at).', params: IdParams, querystring: HealthQuery, response: { 200: ProviderHealthCheck } }),
    handler: async (request) => {
      const { performed_by } = HealthQuery.parse(request.query);
      return checkHealth(kit.idOf(request), await kit.access.itemTenant(request, doc.records), kit.access.performedBy(request, performed_by));
    },
  });
}
