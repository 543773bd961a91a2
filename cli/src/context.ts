import { pino, type Logger } from 'pino';
import { loadCommonConfig, openDatabase, createStreams, type CommonConfig, type Database, type Streams } from '@palisade/core';

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
  close(): Promise<void>;
}

export function createContext(env: NodeJS.ProcessEnv = process.env, logger?: Logger): ComponentContext {
  const config = loadCommonConfig(env);
  const log = logger ?? pino({ level: config.LOG_LEVEL, base: { app: 'palisade' } });
  let db: Promise<Database> | undefined;
  let streams: Promise<Streams> | undefined;
  return {
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
      db = undefined;
      streams = undefined;
      const [d, s] = await Promise.allSettled(opened.map((p) => p ?? Promise.resolve(undefined)));
      if (s?.status === 'fulfilled' && s.value) await (s.value as Streams).close();
      if (d?.status === 'fulfilled' && d.value) await (d.value as Database).close();
    },
  };
}
