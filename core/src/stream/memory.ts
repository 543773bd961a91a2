/**
 * The embedded default (`palisade all` without REDIS_URL): every facet in this process's memory.
 * Nothing survives a restart and nothing is shared between processes — fine for one process, which
 * is the only case it is wired for.
 */
import { Lifecycle } from './lifecycle.js';
import { MemoryCache } from './memory-cache.js';
import { MemoryEventStream } from './memory-events.js';
import { MemoryPubSub } from './memory-pubsub.js';
import { defaultErrorReporter, systemClock, type StreamsClock, type StreamsErrorReporter, type Streams } from './types.js';

export interface MemoryStreamsOptions {
  /** Time source for TTLs, rate-limit windows, entry ids and idle times (blocking waits use real time). */
  clock?: StreamsClock;
  /** Where a throwing pub/sub handler is reported (default: a process warning). */
  onError?: StreamsErrorReporter;
  /** How often expired keys are swept (default 60 s); the timer is unref'd and cleared on close. */
  sweepIntervalMs?: number;
}

export function createMemoryStreams(options: MemoryStreamsOptions = {}): Streams {
  const clock = options.clock ?? systemClock;
  const life = new Lifecycle('in-process');
  const cache = new MemoryCache(clock, life);
  const pubsub = new MemoryPubSub(life, options.onError ?? defaultErrorReporter);
  const events = new MemoryEventStream(clock, life);
  const sweeper = setInterval(() => cache.sweep(), options.sweepIntervalMs ?? 60_000);
  sweeper.unref();

  return {
    kind: 'memory',
    cache,
    pubsub,
    events,
    async ping() {
      life.assertOpen();
    },
    async close() {
      if (!life.markClosed()) return;
      clearInterval(sweeper);
      cache.clear();
      pubsub.clear();
      events.clear();
    },
  };
}
