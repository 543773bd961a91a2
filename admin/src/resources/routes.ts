// Providers, profiles, content policies and gateway API keys over HTTP: one set of CRUD and lifecycle
// routes, mounted by the registry (port 8000, the spec's internal API) and by the Admin API, each with
// its own access hook. The routes call the resources' operation objects (state rules, errors, change
// publishing); the hook decides who may call and which tenant a call acts on. Each resource's routes
// are a file of their own; route-kit.ts holds what they share.
import type { FastifyInstance } from 'fastify';
import type { ResourceStore } from '@palisade/core';
import type { ApiKeyOperations } from '../api-keys/operations.js';
import type { ContentPolicyOperations } from '../content-policies/operations.js';
import type { ProfileOperations } from '../registry/profiles.js';
import type { ProviderOperations } from '../registry/providers.js';
import { registerApiKeyRoutes } from './api-key-routes.js';
import { registerContentPolicyRoutes } from './content-policy-routes.js';
import { registerProfileRoutes } from './profile-routes.js';
import { registerProviderRoutes, type CheckHealth } from './provider-routes.js';
import { resourceRouteKit, type ResourceAccess } from './route-kit.js';

export { TenantQuery, type ResourceAccess, type TenantRecords } from './route-kit.js';
export type { CheckHealth } from './provider-routes.js';

export interface ResourceRouteDeps {
  store: ResourceStore;
  providers: ProviderOperations;
  profiles: ProfileOperations;
  contentPolicies: ContentPolicyOperations;
  apiKeys: ApiKeyOperations;
  checkHealth: CheckHealth;
  access: ResourceAccess;
}

export function registerResourceRoutes(app: FastifyInstance, deps: ResourceRouteDeps): void {
  const kit = resourceRouteKit(app, deps.access);
  registerProviderRoutes(kit, deps.providers, deps.store, deps.checkHealth);
  registerProfileRoutes(kit, deps.profiles, deps.store);
  registerContentPolicyRoutes(kit, deps.contentPolicies, deps.store);
  registerApiKeyRoutes(kit, deps.apiKeys, deps.store);
}
