// The event writer as the CLI runs it (security events, and the usage rollups beside them): configuration from the environment, the writer on the shared
// database and event stream, and its lifecycle (start after the database is migrated, stop before the
// stream bundle and the database are closed).
import type { Logger } from 'pino';
import { envInt, parseEnv, type Database, type EnvValues, type Streams } from '@palisade/core';
import { createUsageWriter, type UsageWriter } from './usage-writer.js';
import { createEventWriter, MAX_EVENT_BATCH_SIZE, type EventWriter } from './writer.js';

export const EVENT_WRITER_ENV = {
  /** Entries per batch and per INSERT. */
  EVENT_WRITER_BATCH_SIZE: envInt(1, MAX_EVENT_BATCH_SIZE, 500),
  /** How long one read waits for new entries; also the longest a stop waits for that read. */
  EVENT_WRITER_BLOCK_MS: envInt(10, 30_000, 1_000),
  /** Entries pending this long with a writer that stopped answering are taken over. */
  EVENT_WRITER_CLAIM_IDLE_MS: envInt(1_000, 3_600_000, 30_000),
};
export type EventWriterConfig = EnvValues<typeof EVENT_WRITER_ENV>;

export interface EventWriterComponentDeps {
  db: Database;
  streams: Pick<Streams, 'events'>;
  env?: NodeJS.ProcessEnv;
  logger?: Logger;
  /** Default `<hostname>-<pid>`; set it when replicas share a host name and pid (containers). */
  consumer?: string;
}

export interface EventWriterComponent {
  config: EventWriterConfig;
  writer: EventWriter;
  /** Stores the gateways' usage rollups (a second consumer group, on the usage stream). */
  usage: UsageWriter;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Throws ConfigError naming the variable when one of EVENT_WRITER_ENV is out of range. */
export function createEventWriterComponent(deps: EventWriterComponentDeps): EventWriterComponent {
  const config = parseEnv(EVENT_WRITER_ENV, deps.env ?? process.env);
  const writer = createEventWriter({
    db: deps.db,
    events: deps.streams.events,
    batchSize: config.EVENT_WRITER_BATCH_SIZE,
    blockMs: config.EVENT_WRITER_BLOCK_MS,
    claimIdleMs: config.EVENT_WRITER_CLAIM_IDLE_MS,
    ...(deps.consumer === undefined ? {} : { consumer: deps.consumer }),
    ...(deps.logger ? { logger: deps.logger.child({ service: 'event-writer' }) } : {}),
  });
  const usage = createUsageWriter({
    db: deps.db,
    events: deps.streams.events,
    blockMs: config.EVENT_WRITER_BLOCK_MS,
    claimIdleMs: config.EVENT_WRITER_CLAIM_IDLE_MS,
    ...(deps.consumer === undefined ? {} : { consumer: deps.consumer }),
    ...(deps.logger ? { logger: deps.logger.child({ service: 'usage-writer' }) } : {}),
  });
  return {
    config,
    writer,
    usage,
    start: async () => {
      await writer.start();
      await usage.start();
    },
    stop: async () => {
      await Promise.all([writer.stop(), usage.stop()]);
    },
  };
}
