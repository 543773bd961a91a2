import type { Logger } from 'pino';
import { createService, createResourceStore, type Database, type SecretBox } from '@palisade/core';
import { createApiKeyOperations } from '../api-keys/operations.js';
import { createContentPolicyOperations } from '../content-policies/operations.js';
import { createMatchOperation } from './match.js';
import { createProfileOperations } from './profiles.js';
import { createProviderOperations } from './providers.js';
import { registerRegistryRoutes } from './routes.js';
import type { CheckHealth } from '../resources/routes.js';
import { createChangePublishing, type ConfigPublisher } from './change-publishing.js';

export type { ConfigPublisher } from './change-publishing.js';

export interface RegistryDeps {
  db: Database;
  secrets: SecretBox;
  publisher: ConfigPublisher;
  checkHealth: CheckHealth;
  checkUrlPattern?: (pattern: string) => string | null;
  logger?: Logger;
  logLevel?: string;
  internalToken?: string | undefined;
}


/** The Profiles Registry (port 8000): providers and profiles with their state rules. */
export function buildRegistry(deps: RegistryDeps) {
  const store = createResourceStore(deps.db);
  const publishing = createChangePublishing(deps.publisher, deps.logger);
  const { onChange } = publishing;
  const providers = createProviderOperations({
    store,
    secrets: deps.secrets,
    onChange,
    ...(deps.checkUrlPattern ? { checkUrlPattern: deps.checkUrlPattern } : {}),
  });
  const profiles = createProfileOperations({ store, onChange });
  const apiKeys = createApiKeyOperations({ store, onChange });
  const contentPolicies = createContentPolicyOperations({ store, onChange });
  const { app, metrics } = createService({
    name: 'registry',
    ...(deps.logger ? { logger: deps.logger } : { logLevel: deps.logLevel ?? 'info' }),
    internalToken: deps.internalToken,
    readiness: { database: () => deps.db.ping() },
  });
  publishing.register(app);
  registerRegistryRoutes(app, {
    store,
    providers,
    profiles,
    apiKeys,
    contentPolicies,
    match: createMatchOperation(store),
    syncNow: publishing.syncNow,
    checkHealth: deps.checkHealth,
  });
  return { app, metrics, store, providers, profiles, apiKeys, contentPolicies };
}
