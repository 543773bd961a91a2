// The content policies' routes: CRUD and their one move (DRAFT → ACTIVE).
import { ContentPolicy, ContentPolicyCreate, ContentPolicyUpdate, type ResourceStore } from '@palisade/core';
import type { ContentPolicyOperations } from '../content-policies/operations.js';
import { registerCrudRoutes, registerItemAction } from './crud-routes.js';
import { StatusListQuery, type ResourceRouteKit } from './route-kit.js';

export function registerContentPolicyRoutes(kit: ResourceRouteKit, contentPolicies: ContentPolicyOperations, store: ResourceStore): void {
  const doc = { tags: ['content-policies'], records: store.contentPolicies, model: ContentPolicy };
  registerCrudRoutes(kit, {
    ...doc,
    path: '/api/v1/content-policies',
    summaries: { list: 'List content policies', create: 'Create a content policy (DRAFT)', get: 'Get a content policy', update: 'Update a content policy', delete: 'Delete a content policy' },
    listQuery: StatusListQuery,
    createBody: ContentPolicyCreate,
    updateBody: ContentPolicyUpdate,
    operations: contentPolicies,
  });
  registerItemAction(kit, { ...doc, path: '/api/v1/content-policies/:id/activate', summary: 'Activate a content policy (DRAFT → ACTIVE)', act: (id, tenantId) => contentPolicies.activate(id, tenantId) });
}
