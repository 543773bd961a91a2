// Exponential backoff, the one rule of every retry in Palisade: the first delay is initialMs, each
// further one doubles, up to maxMs; a jitter spreads each delay over ±jitter of itself, so that
// replicas failing together do not retry together.
//
// Hand-written: the libraries in node_modules (exponential-backoff, p-retry over retry) each run the
// retry loop themselves around one promise, with their own jitter (full, or ×[1, 2)). The callers here
// keep their own loops (a timer that probes the stream, a work queue's per-key timers, a sleep a
// shutdown aborts, ioredis' retryStrategy) and need only the delay.

export interface BackoffOptions {
  /** The first delay. */
  initialMs: number;
  /** The longest delay (default: none). */
  maxMs?: number | undefined;
  /** A fraction: 0.25 draws each delay from [0.75, 1.25] of it (default 0: exact delays). */
  jitter?: number | undefined;
  /** Draws in [0, 1) for the jitter (default Math.random). */
  random?: () => number;
}

/** The delay before retry number `retry` (0: the first): initialMs · 2^retry, capped, jittered. */
export function backoffDelay(retry: number, options: BackoffOptions): number {
  const delay = Math.min(options.initialMs * 2 ** retry, options.maxMs ?? Number.POSITIVE_INFINITY);
  const jitter = options.jitter ?? 0;
  if (jitter === 0) return delay;
  return delay * (1 - jitter + (options.random ?? Math.random)() * 2 * jitter);
}

/** A retry loop's backoff: failures counted since the last success. */
export interface Backoff {
  /** Failures since the last success (0: healthy). */
  readonly failures: number;
  /** Counts one more failure; the delay to wait before the next try. */
  fail(): number;
  /** The delay for the failures counted so far, counting none more (another failure of the same attempt). */
  delay(): number;
  /** A success: the next failure waits initialMs again. */
  reset(): void;
}

export function createBackoff(options: BackoffOptions): Backoff {
  let failures = 0;
  const delay = (): number => backoffDelay(Math.max(0, failures - 1), options);
  return {
    get failures() {
      return failures;
    },
    fail() {
      failures++;
      return delay();
    },
    delay,
    reset() {
      failures = 0;
    },
  };
}
