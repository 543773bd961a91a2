// Hands security events to the event stream without touching the request's latency: emit() only
// queues; appends run after the current I/O phase (setImmediate), a bounded number at a time, and
// emitLater() defers even the building of the records (schema validation, tens of µs per event). When the
// stream backend fails, events wait in a bounded buffer and are retried with backoff, so an outage of
// Redis costs memory for a while, not requests; only an overflowing buffer loses events, counted.
import type { Logger } from 'pino';
import type { EventStream, SecurityEvent } from '@palisade/core';
import { Deque } from './deque.js';

/** The stream the gateway appends to and the event writer and exporter read. */
export const SECURITY_EVENTS_STREAM = 'palisade:security-events';

export interface EventEmitterOptions {
  events: EventStream;
  /** Default SECURITY_EVENTS_STREAM. */
  stream?: string;
  logger?: Pick<Logger, 'info' | 'warn' | 'error'> | undefined;
  /** Events held (queued or being appended) at most; more are dropped and counted (default 10 000). */
  maxBuffer?: number;
  /** Appends in flight at most (default 16). */
  concurrency?: number;
  /** First retry delay after a failed append (default 100 ms), doubled up to retryMaxMs (default 5 s). */
  retryInitialMs?: number;
  retryMaxMs?: number;
  /** How long close() keeps trying by default (default 5 s). */
  closeTimeoutMs?: number;
  /**
   * The stream is capped at about this many entries (default 100 000): the event writer and the
   * exporters normally read within seconds, and without a cap the stream grows with every request
   * forever (in Redis, or in the gateway's memory when nothing in its process reads it). A reader that
   * falls further behind than this loses the oldest entries.
   */
  streamMaxLen?: number;
}

export interface EventEmitterStats {
  /** Events handed to emit(). */
  emitted: number;
  /** Events the stream accepted. */
  appended: number;
  /** Events lost: buffer full, emitted after close, or still unsent when close() gave up. */
  dropped: number;
  /** Events queued or being appended: emitted = appended + dropped + buffered (events of emitLater count once built). */
  buffered: number;
  /** Append attempts that failed (each is retried). */
  failures: number;
  /** emitLater() builders that threw (their events are lost; the first error is logged). */
  buildErrors: number;
  /** True from a failed append until the next successful one. */
  degraded: boolean;
}

export interface EventEmitter {
  /** Queues the events; never throws and never waits. */
  emit(event: SecurityEvent | readonly SecurityEvent[]): void;
  /**
   * Runs `build` in the background, then emits what it returns: the request path pays for a closure
   * instead of building and validating the records. `build` must capture the request's time itself.
   */
  emitLater(build: () => SecurityEvent | readonly SecurityEvent[]): void;
  /** Resolves true once every event emitted so far is appended, false when timeoutMs (default 5 s) passes first. */
  flush(timeoutMs?: number): Promise<boolean>;
  /** Stops accepting events and flushes what it can within timeoutMs; what is left is counted as dropped. */
  close(timeoutMs?: number): Promise<void>;
  readonly stats: EventEmitterStats;
}

function isList(value: SecurityEvent | readonly SecurityEvent[]): value is readonly SecurityEvent[] {
  return Array.isArray(value);
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function createEventEmitter(options: EventEmitterOptions): EventEmitter {
  const { events, logger } = options;
  const stream = options.stream ?? SECURITY_EVENTS_STREAM;
  const maxBuffer = options.maxBuffer ?? 10_000;
  const concurrency = options.concurrency ?? 16;
  const retryInitialMs = options.retryInitialMs ?? 100;
  const retryMaxMs = options.retryMaxMs ?? 5_000;
  const closeTimeoutMs = options.closeTimeoutMs ?? 5_000;
  const append = { maxLen: options.streamMaxLen ?? 100_000 };

  const queue = new Deque<SecurityEvent>();
  const builds: Array<() => SecurityEvent | readonly SecurityEvent[]> = [];
  const counts = { emitted: 0, appended: 0, dropped: 0, failures: 0, buildErrors: 0 };
  let inFlight = 0;
  let scheduled = false;
  let retryTimer: NodeJS.Timeout | undefined;
  /** 0 while the stream is healthy; the current retry delay during an outage. */
  let backoffMs = 0;
  let outage = { since: 0, droppedAtStart: 0 };
  /** One "buffer full" line per episode (reset when the buffer empties). */
  let overflowLogged = false;
  let closing: Promise<void> | undefined;
  /** After close() gave up: failures are dropped instead of re-queued. */
  let abandoned = false;
  const idleWaiters = new Set<() => void>();

  function drop(n: number, why: string): void {
    counts.dropped += n;
    if (overflowLogged) return;
    overflowLogged = true;
    logger?.error({ stream, dropped: counts.dropped, buffered: queue.length + inFlight, maxBuffer }, `security events dropped: ${why}`);
  }

  function enqueue(input: SecurityEvent | readonly SecurityEvent[], accepted: boolean): void {
    const list = isList(input) ? input : [input];
    for (const event of list) {
      counts.emitted++;
      if (!accepted) drop(1, 'emitted after close');
      else if (queue.length + inFlight >= maxBuffer) drop(1, 'the buffer is full');
      else queue.push(event);
    }
  }

  function schedule(): void {
    if (scheduled || (builds.length === 0 && (retryTimer !== undefined || queue.length === 0))) return;
    scheduled = true;
    setImmediate(pump);
  }

  function runBuilds(): void {
    for (const build of builds.splice(0)) {
      try {
        enqueue(build(), true);
      } catch (err) {
        counts.buildErrors++;
        if (counts.buildErrors === 1) logger?.error({ stream, err: errorMessage(err) }, 'building security events failed; further failures are only counted');
      }
    }
  }

  function pump(): void {
    scheduled = false;
    runBuilds();
    // During an outage one append probes the stream; full concurrency resumes on its success.
    const limit = backoffMs > 0 ? 1 : concurrency;
    while (retryTimer === undefined && inFlight < limit && queue.length > 0) {
      const event = queue.shift() as SecurityEvent;
      inFlight++;
      let appending: Promise<string>;
      try {
        appending = events.append(stream, event, append);
      } catch (err) {
        appending = Promise.reject(err);
      }
      appending.then(onAppended, (err: unknown) => onFailed(event, err));
    }
    settle(); // builders may have yielded nothing
  }

  function onAppended(): void {
    inFlight--;
    counts.appended++;
    if (backoffMs > 0) {
      logger?.info(
        { stream, outage_ms: Date.now() - outage.since, dropped_during_outage: counts.dropped - outage.droppedAtStart, buffered: queue.length + inFlight },
        'event stream available again; sending buffered security events',
      );
      backoffMs = 0;
    }
    pump();
    settle();
  }

  function onFailed(event: SecurityEvent, err: unknown): void {
    inFlight--;
    counts.failures++;
    if (abandoned) {
      counts.dropped++;
      settle();
      return;
    }
    queue.unshift(event);
    if (retryTimer !== undefined) return; // the outage is already being handled
    if (backoffMs === 0) {
      outage = { since: Date.now(), droppedAtStart: counts.dropped };
      backoffMs = retryInitialMs;
      logger?.warn({ stream, err: errorMessage(err), buffered: queue.length + inFlight, maxBuffer }, 'event stream unavailable; buffering security events and retrying');
    } else if (inFlight === 0) {
      backoffMs = Math.min(backoffMs * 2, retryMaxMs);
    }
    // Jitter spreads the retries of many gateway replicas after a shared outage.
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      pump();
    }, backoffMs * (0.75 + Math.random() * 0.5));
    // Nothing else should keep a process alive for a retry; close() is the orderly way out.
    retryTimer.unref();
  }

  function settle(): void {
    if (queue.length > 0 || inFlight > 0 || builds.length > 0) return;
    overflowLogged = false;
    for (const wake of [...idleWaiters]) wake();
  }

  function flush(timeoutMs = 5_000): Promise<boolean> {
    if (queue.length === 0 && inFlight === 0 && builds.length === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (drained: boolean): void => {
        clearTimeout(timer);
        idleWaiters.delete(onIdle);
        resolve(drained);
      };
      const onIdle = (): void => done(true);
      const timer = setTimeout(() => done(false), timeoutMs);
      idleWaiters.add(onIdle);
    });
  }

  async function shutdown(timeoutMs: number): Promise<void> {
    // Retry at once instead of waiting out a long backoff: this is the last chance.
    if (retryTimer !== undefined) {
      clearTimeout(retryTimer);
      retryTimer = undefined;
      backoffMs = Math.min(backoffMs, retryInitialMs);
    }
    pump();
    if (await flush(timeoutMs)) return;
    abandoned = true;
    clearTimeout(retryTimer);
    retryTimer = undefined;
    const left = queue.clear();
    counts.dropped += left;
    logger?.error({ stream, dropped: left, in_flight: inFlight }, `event emitter closed with ${left} security events not appended`);
  }

  return {
    emit(input) {
      try {
        enqueue(input, closing === undefined);
        schedule();
      } catch {
        // The request path must never fail because of its record; nothing above is expected to throw.
      }
    },
    emitLater(build) {
      // Bounded like the buffer (a builder yields at least one event); a refused builder counts as one
      // dropped event, since what it would have built is unknown.
      if (closing !== undefined || builds.length >= maxBuffer) {
        counts.emitted++;
        drop(1, closing !== undefined ? 'emitted after close' : 'the buffer is full');
        return;
      }
      builds.push(build);
      schedule();
    },
    flush,
    close(timeoutMs = closeTimeoutMs) {
      closing ??= shutdown(timeoutMs);
      return closing;
    },
    get stats(): EventEmitterStats {
      return { ...counts, buffered: queue.length + inFlight, degraded: backoffMs > 0 };
    },
  };
}
