/**
 * Event stream, pub/sub and cache behind one set of interfaces: Redis when REDIS_URL is given,
 * in-process otherwise (the embedded default). See types.ts for the contract.
 * Re-exported from the core package root, so every name here is specific to this module.
 */
import { createMemoryStreams } from './memory.js';
import { createRedisStreams, type RedisStreamsOptions } from './redis.js';
import type { Streams } from './types.js';

export {
  StreamsError,
  type Cache,
  type EventPayload,
  type EventStream,
  type PubSub,
  type PubSubHandler,
  type PubSubUnsubscribe,
  type RateLimitResult,
  type StreamEntry,
  type StreamReadOptions,
  type Streams,
  type StreamsClock,
  type StreamsErrorCode,
  type StreamsErrorReporter,
} from './types.js';
export { createMemoryStreams, type MemoryStreamsOptions } from './memory.js';
export { createRedisStreams, DEFAULT_STREAMS_KEY_PREFIX, type RedisStreamsOptions } from './redis.js';

/** Redis when a URL is given (rejects with StreamsError CONNECT if unreachable), in-process otherwise. */
export async function createStreams(redisUrl?: string, options: Omit<RedisStreamsOptions, 'url'> = {}): Promise<Streams> {
  const url = redisUrl?.trim();
  if (url === undefined || url === '') return createMemoryStreams(options.onError === undefined ? {} : { onError: options.onError });
  return createRedisStreams({ ...options, url });
}
export { createExclusive, type Exclusive } from './exclusive.js';
export { createWakeablePause, type WakeablePause } from './wakeable-pause.js';
export {
  createConsumerGroupWorker,
  type ConsumerGroupCycleResult,
  type ConsumerGroupReader,
  type ConsumerGroupWorker,
  type ConsumerGroupWorkerOptions,
  type ConsumerGroupWorkerState,
  type StreamReaderOptions,
} from './consumer-group-worker.js';
