// Providers, profiles, content policies and gateway API keys over HTTP: one set of CRUD and lifecycle
// routes, mounted by the registry (port 8000, the spec's internal API) and by the Admin API, each with
// its own access hook. The routes call the resources' operation objects (state rules, errors, change
// publishing); the hook decides who may call and which tenant a call acts on.
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import { z } from 'zod';
import {
  ApiKeyCreate,
  ApiKeyCreated,
  ApiKeyPublic,
  ApiKeyUpdate,
  ContentPolicy,
  ContentPolicyCreate,
  ContentPolicyUpdate,
  IdParams,
  LIFECYCLE_STATUSES,
  ListQuery,
  PageOf,
  Profile,
  ProfileCreate,
  ProfileUpdate,
  Provider,
  ProviderCreate,
  ProviderHealthCheck,
  ProviderUpdate,
  profileWarnings,
  type ResourceRepository,
  type ResourceStore,
  type StoredRecord,
} from '@palisade/core';
import type { ApiKeyOperations } from '../api-keys/operations.js';
import type { ContentPolicyOperations } from '../content-policies/operations.js';
import type { ProfileOperations } from '../registry/profiles.js';
import type { ProviderOperations, TenantScope } from '../registry/providers.js';
import { routeSchema } from '../admin-api/route-schema.js';

export type TenantRecords = ResourceRepository<StoredRecord & { tenant_id: string }>;

/** Who may call, and which tenant a call acts on: the Admin API's roles and tenant rules, or the registry's X-Tenant-ID. */
export interface ResourceAccess {
  read?: preHandlerHookHandler;
  write?: preHandlerHookHandler;
  remove?: preHandlerHookHandler;
  /** The tenants a listing covers (undefined: every tenant); `requested` is the query's tenant_id. */
  listTenants(request: FastifyRequest, requested: string | undefined): TenantScope;
  /** The tenant an item call acts on; `records` finds the record's own. */
  itemTenant(request: FastifyRequest, records: TenantRecords): Promise<string>;
  /** The tenant a create acts on. */
  createTenant(request: FastifyRequest): string;
  /** Who ran a health check: `asked` is the query's performed_by. */
  performedBy(request: FastifyRequest, asked: string | undefined): string;
}

/** A check now of one provider of a tenant (the registry's health checker). */
export type CheckHealth = (providerId: string, tenantId: string, performedBy: string) => Promise<ProviderHealthCheck>;

export interface ResourceRouteDeps {
  store: ResourceStore;
  providers: ProviderOperations;
  profiles: ProfileOperations;
  contentPolicies: ContentPolicyOperations;
  apiKeys: ApiKeyOperations;
  checkHealth: CheckHealth;
  access: ResourceAccess;
}

export const TenantQuery = z.object({ tenant_id: z.string().min(1).optional() });
const StatusListQuery = ListQuery.extend({ status: z.enum(LIFECYCLE_STATUSES).optional(), tenant_id: z.string().min(1).optional() });
const ProfileListQuery = StatusListQuery.extend({ provider_id: z.string().optional() });
const KeyListQuery = ListQuery.extend({ tenant_id: z.string().min(1).optional() });
const HealthQuery = TenantQuery.extend({ performed_by: z.string().min(1).max(255).optional() });

/**
 * A profile answer carries its warnings as `Warning: 299 - "…"` headers (RFC 7234's "miscellaneous
 * persistent warning", the form kubectl prints for admission warnings), so scripts and the operator
 * see them without a change to the profile's schema.
 */
function warnAbout(reply: FastifyReply, profile: Profile): Profile {
  const warnings = profileWarnings(profile);
  if (warnings.length > 0) reply.header('warning', warnings.map((w) => `299 - ${JSON.stringify(w)}`));
  return profile;
}

export function registerResourceRoutes(app: FastifyInstance, deps: ResourceRouteDeps): void {
  const { access } = deps;
  const read = access.read ? { preHandler: access.read } : {};
  const write = access.write ? { preHandler: access.write } : {};
  const remove = access.remove ? { preHandler: access.remove } : {};
  const idOf = (request: FastifyRequest) => IdParams.parse(request.params).id;
  const itemTenant = access.itemTenant;
  const createTenant = access.createTenant;
  const itemParams = { params: IdParams, querystring: TenantQuery };

  // --- providers ---------------------------------------------------------------------------------
  {
    const tags = ['providers'];
    const { providers } = deps;
    const repo = deps.store.providers;
    app.get('/api/v1/providers', {
      ...read,
      schema: routeSchema({ tags, summary: 'List providers (upstream secrets masked)', querystring: StatusListQuery, response: { 200: PageOf(Provider) } }),
      handler: async (request) => {
        const query = StatusListQuery.parse(request.query);
        return providers.list(access.listTenants(request, query.tenant_id), query);
      },
    });
    app.post('/api/v1/providers', {
      ...write,
      schema: routeSchema({ tags, summary: 'Create a provider (DRAFT)', body: ProviderCreate, querystring: TenantQuery, response: { 201: Provider } }),
      handler: async (request, reply) => reply.code(201).send(await providers.create(request.body, createTenant(request))),
    });
    app.get('/api/v1/providers/:id', {
      ...read,
      schema: routeSchema({ tags, summary: 'Get a provider', ...itemParams, response: { 200: Provider } }),
      handler: async (request) => providers.get(idOf(request), await itemTenant(request, repo)),
    });
    app.put('/api/v1/providers/:id', {
      ...write,
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
      ...remove,
      schema: routeSchema({ tags, summary: 'Delete a provider', ...itemParams, response: { 204: null } }),
      handler: async (request, reply) => {
        await providers.remove(idOf(request), await itemTenant(request, repo));
        return reply.code(204).send();
      },
    });
    for (const move of ['activate', 'archive', 'reactivate'] as const) {
      app.post(`/api/v1/providers/:id/${move}`, {
        ...write,
        schema: routeSchema({ tags, summary: `${move} a provider`, ...itemParams, response: { 200: Provider } }),
        handler: async (request) => providers[move](idOf(request), await itemTenant(request, repo)),
      });
    }
    app.post('/api/v1/providers/:id/health-check', {
      ...write,
      schema: routeSchema({ tags, summary: 'Run a health check now', description: 'The result is also stored on the provider (health_status, health_latency_ms, health_error_message, health_checked_at).', params: IdParams, querystring: HealthQuery, response: { 200: ProviderHealthCheck } }),
      handler: async (request) => {
        const { performed_by } = HealthQuery.parse(request.query);
        return deps.checkHealth(idOf(request), await itemTenant(request, repo), access.performedBy(request, performed_by));
      },
    });
  }

  // --- profiles ----------------------------------------------------------------------------------
  {
    const tags = ['profiles'];
    const { profiles } = deps;
    const repo = deps.store.profiles;
    app.get('/api/v1/profiles', {
      ...read,
      schema: routeSchema({ tags, summary: 'List security profiles', querystring: ProfileListQuery, response: { 200: PageOf(Profile) } }),
      handler: async (request) => {
        const query = ProfileListQuery.parse(request.query);
        return profiles.list(access.listTenants(request, query.tenant_id), query);
      },
    });
    app.post('/api/v1/profiles', {
      ...write,
      schema: routeSchema({ tags, summary: 'Create a security profile (DRAFT) for an ACTIVE provider',
        description: 'Settings whose effect is easy to miss (e.g. content safety on responses with incremental streaming) are answered as `Warning: 299` headers.',
        body: ProfileCreate, querystring: TenantQuery, response: { 201: Profile } }),
      handler: async (request, reply) => reply.code(201).send(warnAbout(reply, await profiles.create(request.body, createTenant(request)))),
    });
    app.get('/api/v1/profiles/:id', {
      ...read,
      schema: routeSchema({ tags, summary: 'Get a security profile', ...itemParams, response: { 200: Profile } }),
      handler: async (request, reply) => warnAbout(reply, await profiles.get(idOf(request), await itemTenant(request, repo))),
    });
    app.put('/api/v1/profiles/:id', {
      ...write,
      schema: routeSchema({ tags, summary: 'Update a security profile (nested settings merge field by field)', body: ProfileUpdate, ...itemParams, response: { 200: Profile } }),
      handler: async (request, reply) => warnAbout(reply, await profiles.update(idOf(request), request.body, await itemTenant(request, repo))),
    });
    app.delete('/api/v1/profiles/:id', {
      ...remove,
      schema: routeSchema({ tags, summary: 'Delete a security profile', ...itemParams, response: { 204: null } }),
      handler: async (request, reply) => {
        await profiles.remove(idOf(request), await itemTenant(request, repo));
        return reply.code(204).send();
      },
    });
    for (const move of ['activate', 'archive', 'reactivate'] as const) {
      app.post(`/api/v1/profiles/:id/${move}`, {
        ...write,
        schema: routeSchema({ tags, summary: `${move} a security profile`, ...itemParams, response: { 200: Profile } }),
        handler: async (request, reply) => warnAbout(reply, await profiles[move](idOf(request), await itemTenant(request, repo))),
      });
    }
  }

  // --- content policies --------------------------------------------------------------------------
  {
    const tags = ['content-policies'];
    const { contentPolicies } = deps;
    const repo = deps.store.contentPolicies;
    app.get('/api/v1/content-policies', {
      ...read,
      schema: routeSchema({ tags, summary: 'List content policies', querystring: StatusListQuery, response: { 200: PageOf(ContentPolicy) } }),
      handler: async (request) => {
        const query = StatusListQuery.parse(request.query);
        return contentPolicies.list(access.listTenants(request, query.tenant_id), query);
      },
    });
    app.post('/api/v1/content-policies', {
      ...write,
      schema: routeSchema({ tags, summary: 'Create a content policy (DRAFT)', body: ContentPolicyCreate, querystring: TenantQuery, response: { 201: ContentPolicy } }),
      handler: async (request, reply) => reply.code(201).send(await contentPolicies.create(request.body, createTenant(request))),
    });
    app.get('/api/v1/content-policies/:id', {
      ...read,
      schema: routeSchema({ tags, summary: 'Get a content policy', ...itemParams, response: { 200: ContentPolicy } }),
      handler: async (request) => contentPolicies.get(idOf(request), await itemTenant(request, repo)),
    });
    app.put('/api/v1/content-policies/:id', {
      ...write,
      schema: routeSchema({ tags, summary: 'Update a content policy', body: ContentPolicyUpdate, ...itemParams, response: { 200: ContentPolicy } }),
      handler: async (request) => contentPolicies.update(idOf(request), request.body, await itemTenant(request, repo)),
    });
    app.post('/api/v1/content-policies/:id/activate', {
      ...write,
      schema: routeSchema({ tags, summary: 'Activate a content policy (DRAFT → ACTIVE)', ...itemParams, response: { 200: ContentPolicy } }),
      handler: async (request) => contentPolicies.activate(idOf(request), await itemTenant(request, repo)),
    });
    app.delete('/api/v1/content-policies/:id', {
      ...remove,
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
      ...read,
      schema: routeSchema({ tags, summary: 'List gateway API keys (prefix only, never the key)', querystring: KeyListQuery, response: { 200: PageOf(ApiKeyPublic) } }),
      handler: async (request) => {
        const query = KeyListQuery.parse(request.query);
        return apiKeys.list(access.listTenants(request, query.tenant_id), { limit: query.limit, offset: query.offset });
      },
    });
    app.post('/api/v1/api-keys', {
      ...write,
      schema: routeSchema({ tags, summary: 'Create a gateway API key', description: 'The reply carries the key in clear, the only time it is shown.', body: ApiKeyCreate, response: { 201: ApiKeyCreated } }),
      handler: async (request, reply) => reply.code(201).send(await apiKeys.create(request.body, createTenant(request))),
    });
    app.get('/api/v1/api-keys/:id', {
      ...read,
      schema: routeSchema({ tags, summary: 'Get a gateway API key', ...itemParams, response: { 200: ApiKeyPublic } }),
      handler: async (request) => apiKeys.get(idOf(request), await itemTenant(request, repo)),
    });
    app.put('/api/v1/api-keys/:id', {
      ...write,
      schema: routeSchema({ tags, summary: 'Rename, change the rate limit, or revoke', body: ApiKeyUpdate, ...itemParams, response: { 200: ApiKeyPublic } }),
      handler: async (request) => apiKeys.update(idOf(request), request.body, await itemTenant(request, repo)),
    });
    app.post('/api/v1/api-keys/:id/revoke', {
      ...write,
      schema: routeSchema({ tags, summary: 'Revoke a gateway API key (the gateway refuses it from the next bundle on)', ...itemParams, response: { 200: ApiKeyPublic } }),
      handler: async (request) => apiKeys.update(idOf(request), { revoked: true }, await itemTenant(request, repo)),
    });
    app.delete('/api/v1/api-keys/:id', {
      ...remove,
      schema: routeSchema({ tags, summary: 'Delete a gateway API key', ...itemParams, response: { 204: null } }),
      handler: async (request, reply) => {
        await apiKeys.remove(idOf(request), await itemTenant(request, repo));
        return reply.code(204).send();
      },
    });
  }
}
