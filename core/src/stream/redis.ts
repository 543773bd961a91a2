/**
 * The Redis backend (REDIS_URL): what several gateway replicas share. One command connection, plus
 * a subscriber connection and blocking-read connections opened only when used. Keys and channels
 * are namespaced by a prefix (default "palisade:") so several deployments or test runs can share
 * one Redis: `<prefix>cache:<key>`, `<prefix>rl:<key>`, `<prefix>stream:<name>`, channel `<prefix><name>`.
 */
import type { Redis } from 'ioredis';
import { Lifecycle } from './lifecycle.js';
import { RedisCache } from './redis-cache.js';
import { BlockingPool, openConnection, redactUrl } from './redis-connection.js';
import { RedisEventStream } from './redis-events.js';
import { RedisPubSub } from './redis-pubsub.js';
import { defaultErrorReporter, StreamsError, type StreamsErrorReporter, type Streams } from './types.js';

export interface RedisStreamsOptions {
  /** redis://[user:password@]host:port[/db] or rediss:// for TLS. */
  url: string;
  /** Namespace for every key and channel (default "palisade:"). */
  keyPrefix?: string;
  /** TCP connect timeout per connection (default 3000 ms). */
  connectTimeoutMs?: number;
  /** Timeout for ordinary commands (default 5000 ms); blocking reads are bounded by blockMs instead. */
  commandTimeoutMs?: number;
  /** Connection name shown by CLIENT LIST, suffixed with the connection's role (default "palisade"). */
  connectionName?: string;
  /** Where a lost connection or a throwing pub/sub handler is reported (default: a process warning). */
  onError?: StreamsErrorReporter;
}

export const DEFAULT_STREAMS_KEY_PREFIX = 'palisade:';

/** Connects (rejecting with StreamsError code CONNECT when Redis is unreachable) and returns the bundle. */
export async function createRedisStreams(options: RedisStreamsOptions): Promise<Streams> {
  const { url } = options;
  if (typeof url !== 'string' || !/^rediss?:\/\//i.test(url)) {
    throw new StreamsError('INVALID', `REDIS_URL must look like redis://host:port or rediss://host:port, got ${JSON.stringify(redactUrl(String(url)))}`);
  }
  const prefix = options.keyPrefix ?? DEFAULT_STREAMS_KEY_PREFIX;
  const connectTimeoutMs = options.connectTimeoutMs ?? 3_000;
  const onError = options.onError ?? defaultErrorReporter;
  const open = (role: string, commandTimeoutMs?: number): Promise<Redis> =>
    openConnection({ url, role, name: options.connectionName ?? 'palisade', connectTimeoutMs, onError, ...(commandTimeoutMs === undefined ? {} : { commandTimeoutMs }) });

  const client = await open('commands', options.commandTimeoutMs ?? 5_000);
  const life = new Lifecycle(`Redis (${redactUrl(url)})`);
  const blocking = new BlockingPool(() => open('blocking-reads'));
  const cache = new RedisCache(client, prefix, life);
  const pubsub = new RedisPubSub(client, prefix, life, () => open('subscriber'), onError);
  const events = new RedisEventStream(client, prefix, life, blocking);

  return {
    kind: 'redis',
    cache,
    pubsub,
    events,
    async ping(timeoutMs = 2_000) {
      life.assertOpen();
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          client.ping(),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`no PONG within ${timeoutMs} ms`)), timeoutMs);
          }),
        ]);
      } catch (err) {
        throw new StreamsError('UNAVAILABLE', `Redis at ${redactUrl(url)} is not answering: ${(err as Error).message}`, { cause: err });
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      if (!life.markClosed()) return;
      blocking.close();
      const subscriber = await pubsub.takeSubscriber();
      // QUIT lets replies already on the way arrive; disconnect() is the fallback when it cannot be sent.
      await Promise.all(
        [subscriber, client].map(async (c) => {
          if (c === undefined) return;
          try {
            await c.quit();
          } catch {
            c.disconnect();
          }
        }),
      );
    },
  };
}
