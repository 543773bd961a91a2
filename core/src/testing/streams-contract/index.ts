/**
 * The contract suite every Streams implementation must pass, run by memory.test.ts and redis.test.ts
 * with their own factory. Only real time is used (tens of ms), so both backends are held to exactly
 * the same observable behaviour. One function per group of the contract, in the order they run.
 */
import { randomUUID } from 'node:crypto';
import type { Test } from 'tap';
import type { StreamsErrorReporter, Streams } from '../../stream/types.js';
import { cacheContract, rateLimitContract } from './cache.js';
import type { StreamsContractContext, StreamsFactory } from './context.js';
import { eventBlockingReadsContract, eventClaimsContract, eventGroupsContract, eventReadsContract, eventTrimContract } from './events.js';
import { lifecycleContract } from './lifecycle.js';
import { pubsubContract } from './pubsub.js';

export { childExitsAfterClose } from './child.js';
export { waitFor, type StreamsFactory } from './context.js';

export function streamsContract(t: Test, factory: StreamsFactory): void {
  let n = 0;
  const context: StreamsContractContext = {
    factory,
    uniq: (what: string): string => `${what}-${++n}-${randomUUID().slice(0, 8)}`,
    open: async (tt: Test, options?: { onError?: StreamsErrorReporter }): Promise<Streams> => {
      const s = await factory(options);
      tt.teardown(() => s.close());
      return s;
    },
  };
  for (const group of [
    cacheContract,
    rateLimitContract,
    pubsubContract,
    eventReadsContract,
    eventBlockingReadsContract,
    eventGroupsContract,
    eventClaimsContract,
    eventTrimContract,
    lifecycleContract,
  ]) {
    group(t, context);
  }
}
