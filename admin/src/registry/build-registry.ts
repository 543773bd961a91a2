import type { Logger } from 'pino';
import { createService, createResourceStore, type Database, type SecretBox } from '@palisade/core';
import { createApiKeyOperations } from '../api-keys/operations.js';
import { createContentPolicyOperations } from '../content-policies/operations.js';
import { createMatchOperation } from './match.js';
import { createProfileOperations } from './profiles.js';
import { createProviderOperations } from './providers.js';
import { registerRegistryRoutes } from './routes.js';

/** What the registry needs to tell the data plane that configuration changed. */
export interface ConfigPublisher {
  /** A change happened: rebuild soon (changes close together make one rebuild). */
  schedule(): void;
  /** Rebuild and publish now; resolves to the revision. */
  syncNow(): Promise<string>;
}

export interface RegistryDeps {
  db: Database;
  secrets: SecretBox;
  publisher: ConfigPublisher;
  checkHealth: (providerId: string, tenantId: string, performedBy: string) => Promise<unknown>;
  checkUrlPattern?: (pattern: string) => string | null;
  logger?: Logger;
  logLevel?: string;
  internalToken?: string | undefined;
}


/** The Profiles Registry (port 8000): providers and profiles with their state rules. */
export function buildRegistry(deps: RegistryDeps) {
  const store = createResourceStore(deps.db);
  const onChange = () => deps.publisher.schedule();
  const providers = createProviderOperations({
    store,
    secrets: deps.secrets,
    onChange,
    ...(deps.checkUrlPattern ? { checkUrlPattern: deps.checkUrlPattern } : {}),
  });
  const profiles = createProfileOperations({ store, onChange });
  const apiKeys = createApiKeyOperations({ store, onChange });
  const contentPolicies = createContentPolicyOperations({ store, onChange });
  const { app } = createService({
    name: 'registry',
    ...(deps.logger ? { logger: deps.logger } : { logLevel: deps.logLevel ?? 'info' }),
    internalToken: deps.internalToken,
    readiness: { database: () => deps.db.ping() },
  });
  registerRegistryRoutes(app, {
    providers,
    profiles,
    apiKeys,
    contentPolicies,
    match: createMatchOperation(store),
    syncNow: () => deps.publisher.syncNow(),
    checkHealth: deps.checkHealth,
  });
  return { app, store, providers, profiles, apiKeys, contentPolicies };
}
