// The emitter's retry loop while the event stream is unreachable: a failed append starts an outage
// (said once at WARN), the next try waits out a jittered exponential backoff, and the first append
// that succeeds ends it (said once at INFO, with how long it lasted and what it lost).
import { createBackoff } from '@palisade/core';
import type { EmitterContext } from './emitter-types.js';

const errorMessage = (err: unknown): string => (err instanceof Error ? err.message : String(err));

export interface StreamOutageOptions extends EmitterContext {
  retryInitialMs: number;
  retryMaxMs: number;
  maxBuffer: number;
  /** Events held in memory, for the log lines. */
  buffered(): number;
  /** The next try, once the backoff delay is over. */
  retry(): void;
  /** Draws for the jitter (default Math.random). */
  random?: () => number;
}

export interface StreamOutage {
  /** From a failed append until the next successful one. */
  readonly degraded: boolean;
  /** A retry is waiting out its delay. */
  readonly waiting: boolean;
  /** The delay of the retry waiting (undefined when none is). */
  readonly retryInMs: number | undefined;
  /**
   * An append failed. `alone`: no other append was out, so this is a new try that failed and the delay
   * grows; failures of the appends of one round share a delay.
   */
  failed(err: unknown, alone: boolean): void;
  /** An append succeeded. */
  recovered(): void;
  /** The last chance (close): the waiting retry is cancelled, and the next one waits the first delay. */
  hurry(): void;
  /** No more retries. */
  stop(): void;
}

export function createStreamOutage(options: StreamOutageOptions): StreamOutage {
  const { stream, logger, counts, spill } = options;
  // Jitter spreads the retries of many gateway replicas after a shared outage.
  const backoff = createBackoff({ initialMs: options.retryInitialMs, maxMs: options.retryMaxMs, jitter: 0.25, ...(options.random ? { random: options.random } : {}) });
  let retryTimer: NodeJS.Timeout | undefined;
  let retryInMs: number | undefined;
  let outage = { since: 0, droppedAtStart: 0 };
  const dropped = (): number => counts.dropped + (spill?.stats.dropped ?? 0);

  function start(err: unknown): void {
    outage = { since: Date.now(), droppedAtStart: dropped() };
    logger?.warn(
      { stream, err: errorMessage(err), buffered: options.buffered(), maxBuffer: options.maxBuffer },
      spill ? 'event stream unavailable; spilling security events to disk and retrying' : 'event stream unavailable; buffering security events and retrying',
    );
  }

  function cancel(): void {
    clearTimeout(retryTimer);
    retryTimer = undefined;
    retryInMs = undefined;
  }

  return {
    get degraded() {
      return backoff.failures > 0;
    },
    get waiting() {
      return retryTimer !== undefined;
    },
    get retryInMs() {
      return retryInMs;
    },
    failed(err, alone) {
      if (retryTimer !== undefined) return; // the outage is already being handled
      let delayMs: number;
      if (backoff.failures === 0) {
        delayMs = backoff.fail();
        start(err);
      } else {
        delayMs = alone ? backoff.fail() : backoff.delay();
      }
      retryInMs = delayMs;
      retryTimer = setTimeout(() => {
        retryTimer = undefined;
        retryInMs = undefined;
        options.retry();
      }, delayMs);
      // Nothing else should keep a process alive for a retry; close() is the orderly way out.
      retryTimer.unref();
    },
    recovered() {
      if (backoff.failures === 0) return;
      logger?.info(
        { stream, outage_ms: Date.now() - outage.since, dropped_during_outage: dropped() - outage.droppedAtStart, buffered: options.buffered(), spill_bytes: spill?.stats.bytes },
        spill ? 'event stream available again; replaying the spilled security events' : 'event stream available again; sending buffered security events',
      );
      backoff.reset();
    },
    hurry() {
      if (retryTimer === undefined) return;
      cancel();
      // Still degraded, but from the first delay again.
      backoff.reset();
      backoff.fail();
    },
    stop: cancel,
  };
}
