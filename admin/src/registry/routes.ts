import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { LIFECYCLE_STATUSES, ListQuery } from '@palisade/core';
import type { ApiKeyOperations } from '../api-keys/operations.js';
import type { ContentPolicyOperations } from '../content-policies/operations.js';
import type { MatchResult } from './match.js';
import type { ProfileOperations } from './profiles.js';
import type { ProviderOperations } from './providers.js';

/** The tenant of a registry call: X-Tenant-ID, else ?tenant_id, else the spec's `default`. */
export function tenantOf(request: FastifyRequest): string {
  const header = request.headers['x-tenant-id'];
  const fromHeader = Array.isArray(header) ? header[0] : header;
  const fromQuery = (request.query as Record<string, unknown> | undefined)?.tenant_id;
  return fromHeader || (typeof fromQuery === 'string' && fromQuery) || 'default';
}

const IdParams = z.object({ id: z.string() });
const ProviderListQuery = ListQuery.extend({ status: z.enum(LIFECYCLE_STATUSES).optional() });
const ProfileListQuery = ProviderListQuery.extend({ provider_id: z.string().optional() });

export interface RegistryRouteDeps {
  providers: ProviderOperations;
  profiles: ProfileOperations;
  /** Rebuilds and publishes the bundle now; resolves to its revision. */
  syncNow: () => Promise<string>;
  /** Runs a provider health check now. */
  checkHealth: (providerId: string, tenantId: string, performedBy: string) => Promise<unknown>;
  /** The provider (and active profile) a request would reach. */
  match: (body: unknown, tenantId: string) => Promise<MatchResult>;
  apiKeys: ApiKeyOperations;
  contentPolicies: ContentPolicyOperations;
}

export function registerRegistryRoutes(app: FastifyInstance, deps: RegistryRouteDeps): void {
  const { providers, profiles } = deps;
  const id = (request: FastifyRequest) => IdParams.parse(request.params).id;

  app.post('/api/v1/providers', async (request, reply) => reply.code(201).send(await providers.create(request.body, tenantOf(request))));
  app.get('/api/v1/providers', async (request) => providers.list(tenantOf(request), ProviderListQuery.parse(request.query)));
  app.get('/api/v1/providers/:id', async (request) => providers.get(id(request), tenantOf(request)));
  app.put('/api/v1/providers/:id', async (request) => providers.update(id(request), request.body, tenantOf(request)));
  app.delete('/api/v1/providers/:id', async (request, reply) => {
    await providers.remove(id(request), tenantOf(request));
    return reply.code(204).send();
  });
  for (const move of ['activate', 'archive', 'reactivate'] as const) {
    app.post(`/api/v1/providers/:id/${move}`, async (request) => providers[move](id(request), tenantOf(request)));
    app.post(`/api/v1/profiles/:id/${move}`, async (request) => profiles[move](id(request), tenantOf(request)));
  }
  app.post('/api/v1/providers/:id/health-check', async (request) => {
    const performedBy = (request.query as Record<string, unknown>).performed_by;
    return deps.checkHealth(id(request), tenantOf(request), typeof performedBy === 'string' ? performedBy : 'api');
  });

  app.post('/api/v1/profiles', async (request, reply) => reply.code(201).send(await profiles.create(request.body, tenantOf(request))));
  app.get('/api/v1/profiles', async (request) => profiles.list(tenantOf(request), ProfileListQuery.parse(request.query)));
  app.get('/api/v1/profiles/:id', async (request) => profiles.get(id(request), tenantOf(request)));
  app.put('/api/v1/profiles/:id', async (request) => profiles.update(id(request), request.body, tenantOf(request)));
  app.delete('/api/v1/profiles/:id', async (request, reply) => {
    await profiles.remove(id(request), tenantOf(request));
    return reply.code(204).send();
  });

  app.post('/api/v1/sync/force', async () => ({ status: 'ok', revision: await deps.syncNow() }));
  app.post('/api/v1/match', async (request) => deps.match(request.body, tenantOf(request)));

  const { contentPolicies } = deps;
  app.post('/api/v1/content-policies', async (request, reply) => reply.code(201).send(await contentPolicies.create(request.body, tenantOf(request))));
  app.get('/api/v1/content-policies', async (request) => contentPolicies.list(tenantOf(request), ProviderListQuery.parse(request.query)));
  app.get('/api/v1/content-policies/:id', async (request) => contentPolicies.get(id(request), tenantOf(request)));
  app.put('/api/v1/content-policies/:id', async (request) => contentPolicies.update(id(request), request.body, tenantOf(request)));
  app.post('/api/v1/content-policies/:id/activate', async (request) => contentPolicies.activate(id(request), tenantOf(request)));
  app.delete('/api/v1/content-policies/:id', async (request, reply) => {
    await contentPolicies.remove(id(request), tenantOf(request));
    return reply.code(204).send();
  });

  const { apiKeys } = deps;
  app.post('/api/v1/api-keys', async (request, reply) => reply.code(201).send(await apiKeys.create(request.body, tenantOf(request))));
  app.get('/api/v1/api-keys', async (request) => apiKeys.list(tenantOf(request), ListQuery.parse(request.query)));
  app.get('/api/v1/api-keys/:id', async (request) => apiKeys.get(id(request), tenantOf(request)));
  app.put('/api/v1/api-keys/:id', async (request) => apiKeys.update(id(request), request.body, tenantOf(request)));
  app.delete('/api/v1/api-keys/:id', async (request, reply) => {
    await apiKeys.remove(id(request), tenantOf(request));
    return reply.code(204).send();
  });
}
