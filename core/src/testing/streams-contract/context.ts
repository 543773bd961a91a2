// What every group of the Streams contract gets: a way to open an implementation for one test, and
// names no other test uses.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Test } from 'tap';
import type { StreamsErrorReporter, Streams } from '../../stream/types.js';

export type StreamsFactory = (options?: { onError?: StreamsErrorReporter }) => Promise<Streams>;

export interface StreamsContractContext {
  factory: StreamsFactory;
  /** An implementation closed when the test `tt` ends. */
  open(tt: Test, options?: { onError?: StreamsErrorReporter }): Promise<Streams>;
  /** A key, channel or stream name unique to this run. */
  uniq(what: string): string;
}

/** Polls until cond() is true, or fails after timeoutMs. */
export async function waitFor(cond: () => boolean, timeoutMs = 2_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) return false;
    await sleep(5);
  }
  return true;
}
