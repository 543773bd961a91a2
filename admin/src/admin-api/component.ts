// The Admin API as the CLI (and end-to-end tests) run it: the app, the bundle publisher that carries
// its changes to the data plane, and on-demand provider health checks (the background checks run in
// the registry component).
import type { Logger } from 'pino';
import { ConfigError, createBundlePublisher, envBool, envEnum, envInt, envSecret, parseEnv, type Database, type LocalBundleAppliers, type PubSub, type SecretBox, COMPONENT_PORTS } from '@palisade/core';
import { createExternalIdentityProvider } from '../identity/external-identity.js';
import type { IdentityProvider } from '../identity/identity-provider.js';
import { createHealthChecker, HEALTH_CHECK_ENV } from '../registry/health-checker.js';
import { createReportWorker } from '../reports/index.js';
import { createRetentionWorker } from '../retention/index.js';
import { buildAdminApi, type AdminRouteModule } from './build-admin-api.js';
import { standardRouteModules } from './standard-modules.js';

/** The spec's port of the Admin API. */
export const ADMIN_API_PORT = COMPONENT_PORTS['admin-api'];

export const ADMIN_API_ENV = {
  /** Spec: true (default) = production, forwarded identity headers required. */
  AUTH_PROXY_ENABLED: envBool(true),
  ADMIN_API_PORT: envInt(1, 65535, ADMIN_API_PORT),
  /** Shared with the authentication proxy; required in production (the forwarded headers' proof). */
  AUTH_PROXY_SHARED_SECRET: envSecret(),
  /** builtin: users in our tables (the `palisade idp` logs them in); external: Keycloak, Entra ID, … */
  IDENTITY_PROVIDER: envEnum(['builtin', 'external'] as const, 'builtin'),
  /** Generate reports in this process (default true); `palisade report-worker` runs more of them alone. */
  REPORT_WORKER_ENABLED: envBool(true),
  ...HEALTH_CHECK_ENV,
} as const;

export interface AdminApiComponentDeps {
  db: Database;
  /** Bundle change notices go out here. */
  pubsub: PubSub;
  /** The bundle consumers of this process (its gateway): a write is answered once they serve it. */
  appliers?: LocalBundleAppliers;
  secrets: SecretBox;
  env?: NodeJS.ProcessEnv;
  identity?: IdentityProvider;
  logger?: Logger;
  logLevel?: string;
  now?: () => Date;
  /** Default: the standard modules (exporters, security events, dashboard, retention settings). */
  routeModules?: AdminRouteModule[];
  /** The retention worker's period (default hourly); 0 = do not run it here. */
  retentionIntervalMs?: number;
  /** Safety-net rebuild interval of the bundle (default 30 s). */
  bundleRefreshMs?: number;
}

export function createAdminApiComponent(deps: AdminApiComponentDeps) {
  const config = parseEnv(ADMIN_API_ENV, deps.env ?? process.env);
  if (config.AUTH_PROXY_ENABLED && !config.AUTH_PROXY_SHARED_SECRET) {
    throw new ConfigError(
      'AUTH_PROXY_SHARED_SECRET is required when AUTH_PROXY_ENABLED=true: the Admin API accepts forwarded identity headers only with the authentication proxy\'s proof (set the same value on both)',
      'AUTH_PROXY_SHARED_SECRET',
    );
  }
  const identity = deps.identity ?? (config.IDENTITY_PROVIDER === 'external' ? createExternalIdentityProvider() : undefined);
  const publisher = createBundlePublisher({
    db: deps.db,
    pubsub: deps.pubsub,
    ...(deps.appliers ? { appliers: deps.appliers } : {}),
    ...(deps.logger ? { logger: deps.logger.child({ service: 'admin-api' }) } : {}),
    ...(deps.bundleRefreshMs !== undefined ? { refreshIntervalMs: deps.bundleRefreshMs } : {}),
  });
  // The checker records through the API's operations, which need the checker for their route.
  let checker: ReturnType<typeof createHealthChecker> | undefined;
  const api = buildAdminApi({
    db: deps.db,
    secrets: deps.secrets,
    publisher,
    checkHealth: (id, tenant, by) => checker!.checkOne(id, tenant, by),
    authProxyEnabled: config.AUTH_PROXY_ENABLED,
    proxySecret: config.AUTH_PROXY_SHARED_SECRET,
    ...(identity ? { identity } : {}),
    ...(deps.now ? { now: deps.now } : {}),
    ...(deps.logger ? { logger: deps.logger } : { logLevel: deps.logLevel ?? 'info' }),
    routeModules: deps.routeModules ?? standardRouteModules({ db: deps.db, secrets: deps.secrets, logger: deps.logger }),
  });
  const retention =
    deps.retentionIntervalMs === 0
      ? undefined
      : createRetentionWorker({
          db: deps.db,
          ...(deps.now ? { now: deps.now } : {}),
          ...(deps.retentionIntervalMs !== undefined ? { intervalMs: deps.retentionIntervalMs } : {}),
          ...(deps.logger ? { logger: deps.logger.child({ service: 'retention' }) } : {}),
        });
  const reportWorker = config.REPORT_WORKER_ENABLED
    ? createReportWorker({ db: deps.db, ...(deps.now ? { now: deps.now } : {}), ...(deps.logger ? { logger: deps.logger.child({ service: 'report-worker' }) } : {}) })
    : undefined;
  checker = createHealthChecker({
    store: api.store,
    config,
    record: (id, result) => api.providers.recordHealth(id, result),
    log: (message) => api.app.log.warn(message),
  });
  const healthChecker = checker;
  api.app.addHook('onClose', async () => {
    await healthChecker.stop();
    await retention?.stop();
    await reportWorker?.stop();
    await publisher.stop();
  });
  return {
    ...api,
    config,
    port: config.ADMIN_API_PORT,
    publisher,
    reportWorker,
    /** Builds and announces the current bundle (changes made here reach the data plane from now on). */
    async start() {
      await publisher.start();
      retention?.start();
      await reportWorker?.start();
    },
  };
}
export type AdminApiComponent = ReturnType<typeof createAdminApiComponent>;
