// The registry as the CLI (and end-to-end tests) run it: the app, the bundle publisher that carries
// its changes to the data plane, and the background health checks.
import type { Logger } from 'pino';
import { createBundlePublisher, parseEnv, type Database, type EventStream, type LocalBundleAppliers, type PubSub, type SecretBox, COMPONENT_PORTS } from '@palisade/core';
import { createEventWriterComponent } from '../event-writer/component.js';
import { registerEventWriterMetrics } from '../event-writer/metrics.js';
import { buildRegistry } from './build-registry.js';
import { createHealthChecker, HEALTH_CHECK_ENV } from './health-checker.js';

export const REGISTRY_PORT = COMPONENT_PORTS.registry;

export interface RegistryComponentDeps {
  db: Database;
  /** Bundle change notices go out here. */
  pubsub: PubSub;
  /** The bundle consumers of this process (its gateway): a write is answered once they serve it. */
  appliers?: LocalBundleAppliers;
  /** When given, the event writer runs here too: security events from the stream into Postgres. */
  events?: EventStream;
  secrets: SecretBox;
  env?: NodeJS.ProcessEnv;
  logger?: Logger;
  logLevel?: string;
  internalToken?: string | undefined;
  /** Safety-net rebuild interval of the bundle (default 30 s). */
  bundleRefreshMs?: number;
}

export function createRegistryComponent(deps: RegistryComponentDeps) {
  const healthConfig = parseEnv(HEALTH_CHECK_ENV, deps.env ?? process.env);
  const publisher = createBundlePublisher({
    db: deps.db,
    pubsub: deps.pubsub,
    ...(deps.appliers ? { appliers: deps.appliers } : {}),
    ...(deps.logger ? { logger: deps.logger.child({ service: 'registry' }) } : {}),
    ...(deps.bundleRefreshMs !== undefined ? { refreshIntervalMs: deps.bundleRefreshMs } : {}),
  });
  // The checker records through the registry's operations, which need the checker for their route.
  let checker: ReturnType<typeof createHealthChecker> | undefined;
  const registry = buildRegistry({
    db: deps.db,
    secrets: deps.secrets,
    publisher,
    checkHealth: (id, tenant, by) => checker!.checkOne(id, tenant, by),
    ...(deps.logger ? { logger: deps.logger } : { logLevel: deps.logLevel ?? 'info' }),
    internalToken: deps.internalToken,
  });
  checker = createHealthChecker({
    store: registry.store,
    config: healthConfig,
    record: (id, result) => registry.providers.recordHealth(id, result),
    log: (message) => registry.app.log.warn(message),
  });
  const healthChecker = checker;
  const eventWriter = deps.events
    ? createEventWriterComponent({ db: deps.db, streams: { events: deps.events }, env: deps.env ?? process.env, ...(deps.logger ? { logger: deps.logger } : {}) })
    : undefined;
  if (eventWriter) registerEventWriterMetrics(registry.metrics.registry, () => eventWriter.writer.stats);
  registry.app.addHook('onClose', async () => {
    await eventWriter?.stop();
    await healthChecker.stop();
    await publisher.stop();
  });
  return {
    ...registry,
    publisher,
    healthChecker,
    eventWriter,
    /** Builds and announces the first bundle, then starts the health checks and the event writer. */
    async start() {
      await publisher.start();
      healthChecker.start();
      await eventWriter?.start();
    },
  };
}
export type RegistryComponent = ReturnType<typeof createRegistryComponent>;
