import { randomBytes } from 'node:crypto';
import { pino, type Logger } from 'pino';
import type { ThreatDetector } from '@palisade/detectors';
import { createLocalBundleAppliers, createSecretBox, loadCommonConfig, openDatabase, createStreams, type CommonConfig, type Database, type LocalBundleAppliers, type SecretBox, type Streams } from '@palisade/core';

/**
 * What components share when several run in one process (`palisade all`): one logger, one database
 * handle and one stream/cache bundle, each opened on first use and closed once at shutdown.
 */
export interface ComponentContext {
  config: CommonConfig;
  env: NodeJS.ProcessEnv;
  logger: Logger;
  database(): Promise<Database>;
  streams(): Promise<Streams>;
  /** PALISADE_SECRET_KEY's box (a development key, with a warning, when it is not set). */
  secrets(): SecretBox;
  /** The in-process threat model (THREAT_DETECTOR_*), loaded once for every component that scores prompts. */
  threatDetector(): Promise<ThreatDetector>;
  /**
   * X-Internal-Token between the bundle store and the gateway: INTERNAL_SERVICE_TOKEN, else, when both
   * run in this process, a random one, so that `npm start` does not hand every tenant's configuration
   * to anyone who reaches the bundle store's port.
   */
  bundleStoreToken(): string | undefined;
  /** The bundle consumers of this process: the registry and Admin API answer a write once its gateway serves it. */
  readonly bundleAppliers: LocalBundleAppliers;
  /** Base URLs of the components started so far in this process, by name. */
  readonly urls: Record<string, string>;
  close(): Promise<void>;
}

export function createContext(env: NodeJS.ProcessEnv = process.env, logger?: Logger, components: readonly string[] = []): ComponentContext {
  const config = loadCommonConfig(env);
  const log = logger ?? pino({ level: config.LOG_LEVEL, base: { app: 'palisade' } });
  let db: Promise<Database> | undefined;
  let streams: Promise<Streams> | undefined;
  let secrets: SecretBox | undefined;
  let threat: Promise<ThreatDetector> | undefined;
  const processToken = components.includes('bundle-store') && components.includes('gateway') ? randomBytes(24).toString('hex') : undefined;
  return {
    bundleStoreToken: () => config.INTERNAL_SERVICE_TOKEN || processToken,
    threatDetector() {
      // Imported here: a process without a component that scores prompts never loads the detectors.
      threat ??= import('@palisade/detectors').then(async ({ createThreatWorkerPool, threatDetectorConfigFromEnv, withThreatModelDir }) => {
        const { device, modelPath, workers } = threatDetectorConfigFromEnv(env);
        // THREAT_MODEL_DIR's pretrained classifier, when set, is combined with the built-in model.
        const pool = await createThreatWorkerPool({ device, workers, modelPath, logger: log });
        return withThreatModelDir(pool, env, { device, logger: log });
      });
      return threat;
    },
    urls: {},
    bundleAppliers: createLocalBundleAppliers((error, revision) => log.warn({ err: error, revision }, 'the gateway of this process did not load the new policy bundle; it retries on the next notice or poll')),
    secrets() {
      if (!secrets) {
        if (!config.PALISADE_SECRET_KEY) log.warn('PALISADE_SECRET_KEY is not set: stored credentials are sealed with a development key');
        secrets = createSecretBox(config.PALISADE_SECRET_KEY);
      }
      return secrets;
    },
    config,
    env,
    logger: log,
    database() {
      db ??= openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.PALISADE_DATA_DIR });
      return db;
    },
    streams() {
      streams ??= createStreams(config.REDIS_URL);
      return streams;
    },
    async close() {
      const opened = [db, streams];
      const model = threat;
      db = undefined;
      streams = undefined;
      threat = undefined;
      await model?.then((m) => m.close()).catch(() => undefined);
      const [d, s] = await Promise.allSettled(opened.map((p) => p ?? Promise.resolve(undefined)));
      if (s?.status === 'fulfilled' && s.value) await (s.value as Streams).close();
      if (d?.status === 'fulfilled' && d.value) await (d.value as Database).close();
    },
  };
}
