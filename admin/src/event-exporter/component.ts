// The event exporter as the CLI runs it (port 8091): configuration from the environment, the consumer
// on the shared database and event stream, and a service with /health and /metrics.
import { createService, envInt, parseEnv, type Database, type EnvValues, type SecretBox, type Service, type Streams, COMPONENT_PORTS } from '@palisade/core';
import type { Logger } from 'pino';
import { createExporterConsumer, type ExporterConsumer } from './consumer.js';
import { createFileLocks } from './file-sink.js';
import { createExporterMetrics } from './metrics.js';
import { createExporterTester, type ExporterTester } from './tester.js';

export const EVENT_EXPORTER_PORT = COMPONENT_PORTS['event-exporter'];

export const EVENT_EXPORTER_ENV = {
  /** Pause between polls of the event stream when it has nothing more. */
  EXPORTER_POLL_INTERVAL_MS: envInt(10, 60_000, 5_000),
  /** How often the exporters table is read again; at most the spec's 30 s. */
  EXPORTER_CONFIG_REFRESH_MS: envInt(100, 30_000, 30_000),
  /** Entries another replica held unacked this long are taken over. */
  EXPORTER_CLAIM_IDLE_MS: envInt(1_000, 3_600_000, 30_000),
  /** Longest backoff between deliveries to a destination that is down. */
  EXPORTER_RETRY_MAX_MS: envInt(100, 300_000, 10_000),
  /** Entries kept in the exporter dead-letter stream. */
  EXPORTER_DEAD_LETTER_MAX_LEN: envInt(1, 10_000_000, 10_000),
};
export type EventExporterConfig = EnvValues<typeof EVENT_EXPORTER_ENV>;

export interface EventExporterDeps {
  db: Database;
  streams: Pick<Streams, 'events' | 'ping'>;
  secrets: SecretBox;
  env?: NodeJS.ProcessEnv;
  logger?: Logger;
  clock?: { now(): number };
  /** Default `<hostname>-<pid>`. */
  consumer?: string;
}

export interface EventExporterComponent {
  config: EventExporterConfig;
  /** createService app: /health, /health/live, /health/ready, /metrics; the CLI listens on EVENT_EXPORTER_PORT. */
  service: Service;
  consumer: ExporterConsumer;
  /** For the admin API's test call; shares the file locks with the consumer. */
  tester: ExporterTester;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Throws ConfigError naming the variable when one of EVENT_EXPORTER_ENV is out of range. */
export function createEventExporterComponent(deps: EventExporterDeps): EventExporterComponent {
  const config = parseEnv(EVENT_EXPORTER_ENV, deps.env ?? process.env);
  const logger = deps.logger?.child({ service: 'event-exporter' });
  const service = createService({
    name: 'event-exporter',
    ...(deps.logger ? { logger: deps.logger } : {}),
    readiness: { database: () => deps.db.ping(), streams: () => deps.streams.ping() },
  });
  const metrics = createExporterMetrics(service.metrics.registry);
  const locks = createFileLocks();
  const consumer = createExporterConsumer({
    db: deps.db,
    events: deps.streams.events,
    secrets: deps.secrets,
    metrics,
    locks,
    pollIntervalMs: config.EXPORTER_POLL_INTERVAL_MS,
    refreshMs: config.EXPORTER_CONFIG_REFRESH_MS,
    claimIdleMs: config.EXPORTER_CLAIM_IDLE_MS,
    retryMaxMs: config.EXPORTER_RETRY_MAX_MS,
    deadLetterMaxLen: config.EXPORTER_DEAD_LETTER_MAX_LEN,
    ...(deps.consumer === undefined ? {} : { consumer: deps.consumer }),
    ...(deps.clock ? { now: () => deps.clock!.now() } : {}),
    logger,
  });
  const tester = createExporterTester({ secrets: deps.secrets, locks, ...(logger ? { logger } : {}) });
  return {
    config,
    service,
    consumer,
    tester,
    start: () => consumer.start(),
    async stop() {
      await consumer.stop();
    },
  };
}
