// Providers, profiles, content policies and API keys in the Admin API: the registry's own operation
// objects (the same state rules and errors), behind the Admin API's permissions and tenant rules.
// Permissions: read for GET; write for POST, PUT, state moves and health checks; delete for DELETE.
// Tenants: `?tenant_id=` (or a create body's tenant_id) naming another tenant is 403 unless
// super-admin; an id of another tenant's record is 403 likewise; a super-admin's listing without
// tenant_id covers every tenant.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  ApiKeyCreate,
  ApiKeyCreated,
  ApiKeyPublic,
  ApiKeyUpdate,
  ContentPolicy,
  ContentPolicyCreate,
  ContentPolicyUpdate,
  LIFECYCLE_STATUSES,
  ListQuery,
  Profile,
  ProfileCreate,
  ProfileUpdate,
  Provider,
  ProviderCreate,
  ProviderUpdate,
  type ResourceRepository,
  type ResourceStore,
  type StoredRecord,
} from '@palisade/core';
import type { ApiKeyOperations } from '../api-keys/operations.js';
import type { ContentPolicyOperations } from '../content-policies/operations.js';
import type { ProfileOperations } from '../registry/profiles.js';
import type { ProviderOperations } from '../registry/providers.js';
import type { AdminRouteContext } from '../auth/contract.js';
import { routeSchema } from './route-schema.js';

export interface ResourceRouteDeps extends AdminRouteContext {
  store: ResourceStore;
  providers: ProviderOperations;
  profiles: ProfileOperations;
  contentPolicies: ContentPolicyOperations;
  apiKeys: ApiKeyOperations;
  checkHealth: (providerId: string, tenantId: string, performedBy: string) => Promise<unknown>;
}

const IdParams = z.object({ id: z.string() });
const TenantQuery = z.object({ tenant_id: z.string().min(1).optional() });
const StatusListQuery = ListQuery.extend({ status: z.enum(LIFECYCLE_STATUSES).optional(), tenant_id: z.string().min(1).optional() });
const ProfileListQuery = StatusListQuery.extend({ provider_id: z.string().optional() });
const KeyListQuery = ListQuery.extend({ tenant_id: z.string().min(1).optional() });
const HealthQuery = TenantQuery.extend({ performed_by: z.string().min(1).max(255).optional() });

const page = <M extends z.ZodType>(item: M) => z.object({ items: z.array(item), total: z.number().int(), limit: z.number().int(), offset: z.number().int() });

export function registerResourceRoutes(app: FastifyInstance, deps: ResourceRouteDeps): void {
  const { access } = deps;
  const read = access.require('read');
  const write = access.require('write');
  const remove = access.require('delete');
  const idOf = (request: FastifyRequest) => IdParams.parse(request.params).id;
  const requestedTenant = (request: FastifyRequest) => TenantQuery.parse(request.query).tenant_id;

  /** The tenant an item call acts on: the one asked for, else the record's own (checked by rule 3). */
  async function itemTenant(request: FastifyRequest, repository: ResourceRepository<StoredRecord & { tenant_id: string }>): Promise<string> {
    const requested = requestedTenant(request);
    if (requested) return access.tenantFor(request, requested);
    const record = await repository.get(idOf(request));
    return access.tenantFor(request, record?.tenant_id);
  }

  /** The tenant a create acts on: the body's tenant_id, else the query's, else the caller's. */
  function createTenant(request: FastifyRequest): string {
    const body = request.body;
    const tenant = body !== null && typeof body === 'object' ? (body as Record<string, unknown>).tenant_id : undefined;
    const fromBody = typeof tenant === 'string' && tenant !== '' ? tenant : undefined;
    return access.tenantFor(request, fromBody ?? requestedTenant(request));
  }

  const itemParams = { params: IdParams, querystring: TenantQuery };

  // --- providers ---------------------------------------------------------------------------------
  {
    const tags = ['providers'];
    const { providers } = deps;
    const repo = deps.store.providers;
    app.get('/api/v1/providers', {
      preHandler: read,
      schema: routeSchema({ tags, summary: 'List providers (upstream secrets masked)', querystring: StatusListQuery, response: { 200: page(Provider) } }),
      handler: async (request) => {
        const query = StatusListQuery.parse(request.query);
        return providers.list(access.tenantsFor(request, query.tenant_id), query);
      },
    });
    app.post('/api/v1/providers', {
      preHandler: write,
      schema: routeSchema({ tags, summary: 'Create a provider (DRAFT)', body: ProviderCreate, querystring: TenantQuery, response: { 201: Provider } }),
      handler: async (request, reply) => reply.code(201).send(await providers.create(request.body, createTenant(request))),
    });
    app.get('/api/v1/providers/:id', {
      preHandler: read,
      schema: routeSchema({ tags, summary: 'Get a provider', ...itemParams, response: { 200: Provider } }),
      handler: async (request) => providers.get(idOf(request), await itemTenant(request, repo)),
    });
    app.put('/api/v1/providers/:id', {
      preHandler: write,
      schema: routeSchema({
        tags,
        summary: 'Update a provider',
        description: 'provider_type and match_type are immutable; an ARCHIVED provider is read-only (409); an ACTIVE one applies the change at once.',
        body: ProviderUpdate,
        ...itemParams,
        response: { 200: Provider },
      }),
      handler: async (request) => providers.update(idOf(request), request.body, await itemTenant(request, repo)),
    });
    app.delete('/api/v1/providers/:id', {
      preHandler: remove,
      schema: routeSchema({ tags, summary: 'Delete a provider', ...itemParams, response: { 204: null } }),
      handler: async (request, reply) => {
        await providers.remove(idOf(request), await itemTenant(request, repo));
        return reply.code(204).send();
      },
    });
    for (const move of ['activate', 'archive', 'reactivate'] as const) {
      app.post(`/api/v1/providers/:id/${move}`, {
        preHandler: write,
        schema: routeSchema({ tags, summary: `${move} a provider`, ...itemParams, response: { 200: Provider } }),
        handler: async (request) => providers[move](idOf(request), await itemTenant(request, repo)),
      });
    }
    app.post('/api/v1/providers/:id/health-check', {
      preHandler: write,
      schema: routeSchema({ tags, summary: 'Run a health check now', params: IdParams, querystring: HealthQuery }),
      handler: async (request) => {
        const { performed_by } = HealthQuery.parse(request.query);
        return deps.checkHealth(idOf(request), await itemTenant(request, repo), performed_by ?? access.principal(request).username);
      },
    });
  }

  // --- profiles ----------------------------------------------------------------------------------
  {
    const tags = ['profiles'];
    const { profiles } = deps;
    const repo = deps.store.profiles;
    app.get('/api/v1/profiles', {
      preHandler: read,
      schema: routeSchema({ tags, summary: 'List security profiles', querystring: ProfileListQuery, response: { 200: page(Profile) } }),
      handler: async (request) => {
        const query = ProfileListQuery.parse(request.query);
        return profiles.list(access.tenantsFor(request, query.tenant_id), query);
      },
    });
    app.post('/api/v1/profiles', {
      preHandler: write,
      schema: routeSchema({ tags, summary: 'Create a security profile (DRAFT) for an ACTIVE provider', body: ProfileCreate, querystring: TenantQuery, response: { 201: Profile } }),
      handler: async (request, reply) => reply.code(201).send(await profiles.create(request.body, createTenant(request))),
    });
    app.get('/api/v1/profiles/:id', {
      preHandler: read,
      schema: routeSchema({ tags, summary: 'Get a security profile', ...itemParams, response: { 200: Profile } }),
      handler: async (request) => profiles.get(idOf(request), await itemTenant(request, repo)),
    });
    app.put('/api/v1/profiles/:id', {
      preHandler: write,
      schema: routeSchema({ tags, summary: 'Update a security profile (nested settings merge field by field)', body: ProfileUpdate, ...itemParams, response: { 200: Profile } }),
      handler: async (request) => profiles.update(idOf(request), request.body, await itemTenant(request, repo)),
    });
    app.delete('/api/v1/profiles/:id', {
      preHandler: remove,
      schema: routeSchema({ tags, summary: 'Delete a security profile', ...itemParams, response: { 204: null } }),
      handler: async (request, reply) => {
        await profiles.remove(idOf(request), await itemTenant(request, repo));
        return reply.code(204).send();
      },
    });
    for (const move of ['activate', 'archive', 'reactivate'] as const) {
      app.post(`/api/v1/profiles/:id/${move}`, {
        preHandler: write,
        schema: routeSchema({ tags, summary: `${move} a security profile`, ...itemParams, response: { 200: Profile } }),
        handler: async (request) => profiles[move](idOf(request), await itemTenant(request, repo)),
      });
    }
  }

  // --- content policies --------------------------------------------------------------------------
  {
    const tags = ['content-policies'];
    const { contentPolicies } = deps;
    const repo = deps.store.contentPolicies;
    app.get('/api/v1/content-policies', {
      preHandler: read,
      schema: routeSchema({ tags, summary: 'List content policies', querystring: StatusListQuery, response: { 200: page(ContentPolicy) } }),
      handler: async (request) => {
        const query = StatusListQuery.parse(request.query);
        return contentPolicies.list(access.tenantsFor(request, query.tenant_id), query);
      },
    });
    app.post('/api/v1/content-policies', {
      preHandler: write,
      schema: routeSchema({ tags, summary: 'Create a content policy (DRAFT)', body: ContentPolicyCreate, querystring: TenantQuery, response: { 201: ContentPolicy } }),
      handler: async (request, reply) => reply.code(201).send(await contentPolicies.create(request.body, createTenant(request))),
    });
    app.get('/api/v1/content-policies/:id', {
      preHandler: read,
      schema: routeSchema({ tags, summary: 'Get a content policy', ...itemParams, response: { 200: ContentPolicy } }),
      handler: async (request) => contentPolicies.get(idOf(request), await itemTenant(request, repo)),
    });
    app.put('/api/v1/content-policies/:id', {
      preHandler: write,
      schema: routeSchema({ tags, summary: 'Update a content policy', body: ContentPolicyUpdate, ...itemParams, response: { 200: ContentPolicy } }),
      handler: async (request) => contentPolicies.update(idOf(request), request.body, await itemTenant(request, repo)),
    });
    app.post('/api/v1/content-policies/:id/activate', {
      preHandler: write,
      schema: routeSchema({ tags, summary: 'Activate a content policy (DRAFT → ACTIVE)', ...itemParams, response: { 200: ContentPolicy } }),
      handler: async (request) => contentPolicies.activate(idOf(request), await itemTenant(request, repo)),
    });
    app.delete('/api/v1/content-policies/:id', {
      preHandler: remove,
      schema: routeSchema({ tags, summary: 'Delete a content policy', ...itemParams, response: { 204: null } }),
      handler: async (request, reply) => {
        await contentPolicies.remove(idOf(request), await itemTenant(request, repo));
        return reply.code(204).send();
      },
    });
  }

  // --- gateway API keys --------------------------------------------------------------------------
  {
    const tags = ['api-keys'];
    const { apiKeys } = deps;
    const repo = deps.store.apiKeys;
    app.get('/api/v1/api-keys', {
      preHandler: read,
      schema: routeSchema({ tags, summary: 'List gateway API keys (prefix only, never the key)', querystring: KeyListQuery, response: { 200: page(ApiKeyPublic) } }),
      handler: async (request) => {
        const query = KeyListQuery.parse(request.query);
        return apiKeys.list(access.tenantsFor(request, query.tenant_id), { limit: query.limit, offset: query.offset });
      },
    });
    app.post('/api/v1/api-keys', {
      preHandler: write,
      schema: routeSchema({ tags, summary: 'Create a gateway API key', description: 'The reply carries the key in clear, the only time it is shown.', body: ApiKeyCreate, response: { 201: ApiKeyCreated } }),
      handler: async (request, reply) => reply.code(201).send(await apiKeys.create(request.body, createTenant(request))),
    });
    app.get('/api/v1/api-keys/:id', {
      preHandler: read,
      schema: routeSchema({ tags, summary: 'Get a gateway API key', ...itemParams, response: { 200: ApiKeyPublic } }),
      handler: async (request) => apiKeys.get(idOf(request), await itemTenant(request, repo)),
    });
    app.put('/api/v1/api-keys/:id', {
      preHandler: write,
      schema: routeSchema({ tags, summary: 'Rename, change the rate limit, or revoke', body: ApiKeyUpdate, ...itemParams, response: { 200: ApiKeyPublic } }),
      handler: async (request) => apiKeys.update(idOf(request), request.body, await itemTenant(request, repo)),
    });
    app.post('/api/v1/api-keys/:id/revoke', {
      preHandler: write,
      schema: routeSchema({ tags, summary: 'Revoke a gateway API key (the gateway refuses it from the next bundle on)', ...itemParams, response: { 200: ApiKeyPublic } }),
      handler: async (request) => apiKeys.update(idOf(request), { revoked: true }, await itemTenant(request, repo)),
    });
    app.delete('/api/v1/api-keys/:id', {
      preHandler: remove,
      schema: routeSchema({ tags, summary: 'Delete a gateway API key', ...itemParams, response: { 204: null } }),
      handler: async (request, reply) => {
        await apiKeys.remove(idOf(request), await itemTenant(request, repo));
        return reply.code(204).send();
      },
    });
  }
}
