// The gateway API keys' routes: CRUD (a create answers the key in clear, the only time) and revoke.
import { z } from 'zod';
import { ApiKeyCreate, ApiKeyCreated, ApiKeyPublic, ApiKeyUpdate, ListQuery, type ResourceStore } from '@palisade/core';
import type { ApiKeyOperations } from '../api-keys/operations.js';
import { registerCrudRoutes, registerItemAction } from './crud-routes.js';
import type { ResourceRouteKit } from './route-kit.js';

const KeyListQuery = ListQuery.extend({ tenant_id: z.string().min(1).optional() });

export function registerApiKeyRoutes(kit: ResourceRouteKit, apiKeys: ApiKeyOperations, store: ResourceStore): void {
  const doc = { tags: ['api-keys'], records: store.apiKeys, model: ApiKeyPublic };
  registerCrudRoutes(kit, {
    ...doc,
    path: '/api/v1/api-keys',
    summaries: {
      list: 'List gateway API keys (prefix only, never the key)',
      create: 'Create a gateway API key',
      get: 'Get a gateway API key',
      update: 'Rename, change the rate limit, or revoke',
      delete: 'Delete a gateway API key',
    },
    descriptions: { create: 'The reply carries the key in clear, the only time it is shown.' },
    listQuery: KeyListQuery,
    createBody: ApiKeyCreate,
    // A key's create documents no query: its tenant comes from the body or the caller.
    createTenantQuery: false,
    created: ApiKeyCreated,
    updateBody: ApiKeyUpdate,
    // Only the page: the tenant is in the scope.
    list: (tenants, query) => apiKeys.list(tenants, { limit: query.limit, offset: query.offset }),
    operations: apiKeys,
  });
  registerItemAction(kit, {
    ...doc,
    path: '/api/v1/api-keys/:id/revoke',
    summary: 'Revoke a gateway API key (the gateway refuses it from the next bundle on)',
    act: (id, tenantId) => apiKeys.update(id, { revoked: true }, tenantId),
  });
}
