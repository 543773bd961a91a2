import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { createAuditRepository, createResourceStore, createService, type AuditRow, type Database, type SecretBox } from '@palisade/core';
import { createApiKeyOperations } from '../api-keys/operations.js';
import { registerAuditHook, type StoredAuditRecord } from '../audit/audit-hook.js';
import { registerAuditLogRoutes } from '../audit/routes.js';
import { createAccessControl } from '../auth/access-control.js';
import { registerMeRoute } from '../auth/me-route.js';
import type { AdminRouteContext } from '../auth/contract.js';
import { createContentPolicyOperations } from '../content-policies/operations.js';
import type { IdentityProvider } from '../identity/identity-provider.js';
import { createPostgresIdentityProvider } from '../identity/postgres-identity.js';
import { registerIdentityRoutes } from '../identity/routes.js';
import { createChangePublishing, type ConfigPublisher } from '../registry/change-publishing.js';
import { createProfileOperations } from '../registry/profiles.js';
import { createProviderOperations } from '../registry/providers.js';
import { registerDocsRoutes, registerOpenApi } from './docs.js';
import { registerResourceRoutes, type CheckHealth } from '../resources/routes.js';
import { adminResourceAccess } from './resource-access.js';
import { useDocumentingSchemas } from './route-schema.js';

/** A resource's routes, written elsewhere and mounted inside the Admin API's auth and audit hooks. */
export type AdminRouteModule = (app: FastifyInstance, ctx: AdminRouteContext) => void;

export interface AdminApiDeps {
  db: Database;
  secrets: SecretBox;
  /** Tells the data plane that configuration changed (the registry's bundle publisher). */
  publisher: ConfigPublisher;
  /** Runs a provider health check now. */
  checkHealth: CheckHealth;
  /** Users and roles; the built-in Postgres one when absent. */
  identity?: IdentityProvider;
  /** Spec: true (production) needs the forwarded identity headers; false acts as the dev-user. */
  authProxyEnabled: boolean;
  /** The secret shared with the authentication proxy: forwarded headers count only with its proof. */
  proxySecret?: string | undefined;
  now?: () => Date;
  logger?: Logger;
  logLevel?: string;
  /** Validates a url match pattern (the gateway's RE2 compiler by default). */
  checkUrlPattern?: (pattern: string) => string | null;
  /** Registered after the Admin API's own routes, with the same context. */
  routeModules?: AdminRouteModule[];
}


/** The Admin API (port 8001): every resource behind roles, tenants and the audit log. */
export function buildAdminApi(deps: AdminApiDeps) {
  const now = deps.now ?? (() => new Date());
  const store = createResourceStore(deps.db);
  const publishing = createChangePublishing(deps.publisher, deps.logger);
  const { onChange } = publishing;
  const providers = createProviderOperations({ store, secrets: deps.secrets, onChange, now, ...(deps.checkUrlPattern ? { checkUrlPattern: deps.checkUrlPattern } : {}) });
  const profiles = createProfileOperations({ store, onChange, now });
  const contentPolicies = createContentPolicyOperations({ store, onChange, now });
  const apiKeys = createApiKeyOperations({ store, onChange, now });
  const identity = deps.identity ?? createPostgresIdentityProvider({ db: deps.db, now });
  const audit = createAuditRepository<StoredAuditRecord & AuditRow>(deps.db);
  const access = createAccessControl({ authProxyEnabled: deps.authProxyEnabled, proxySecret: deps.proxySecret });
  const ctx: AdminRouteContext = { access, now };

  const { app } = createService({
    name: 'admin-api',
    ...(deps.logger ? { logger: deps.logger } : { logLevel: deps.logLevel ?? 'info' }),
    readiness: { database: () => deps.db.ping() },
  });
  // Per route-schema.ts: the schemas document, zod validates in the handlers (one validator, one
  // error format), and answers are sent whole.
  useDocumentingSchemas(app);

  /** Every route as registered (method, url), so tests can prove the access matrix covers them all. */
  const routes: Array<{ method: string; url: string }> = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });
  publishing.register(app);
  registerAuditHook(app, { audit, access, now });
  registerOpenApi(app);
  app.register(async (api) => {
    registerResourceRoutes(api, { store, providers, profiles, contentPolicies, apiKeys, checkHealth: deps.checkHealth, access: adminResourceAccess(access) });
    registerMeRoute(api, ctx);
    registerIdentityRoutes(api, { ...ctx, identity });
    registerAuditLogRoutes(api, { ...ctx, audit });
    for (const mount of deps.routeModules ?? []) mount(api, ctx);
  });
  registerDocsRoutes(app);

  return { app, routes, db: deps.db, access, store, providers, profiles, contentPolicies, apiKeys, identity, audit };
}
export type AdminApi = ReturnType<typeof buildAdminApi>;
