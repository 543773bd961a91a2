// Hands security events to the event stream without touching the request's latency: emit() only
// queues; appends run after the current I/O phase (setImmediate), a bounded number at a time, and
// emitLater() defers even the building of the records (schema validation, tens of µs per event).
//
// With a spill (spill/: a journal on local disk), an outage of the stream or a full memory buffer
// sends events to disk instead; once the stream answers, the journal is replayed in order before new
// events go straight to the stream again, so the events of every answered request reach the stream
// at least once. Only a full journal loses events, counted and logged. Without a spill, events wait
// in the bounded memory buffer and an overflow loses them, counted and logged.
import type { SecurityEvent } from '@palisade/core';
import { Deque } from './deque.js';
import { SECURITY_EVENTS_STREAM, type EventEmitter, type EventEmitterOptions, type EventEmitterStats } from './emitter-types.js';

export { SECURITY_EVENTS_STREAM, type EventEmitter, type EventEmitterOptions, type EventEmitterStats };

function isList(value: SecurityEvent | readonly SecurityEvent[]): value is readonly SecurityEvent[] {
  return Array.isArray(value);
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function createEventEmitter(options: EventEmitterOptions): EventEmitter {
  const { events, logger, spill } = options;
  const stream = options.stream ?? SECURITY_EVENTS_STREAM;
  const maxBuffer = options.maxBuffer ?? 10_000;
  const concurrency = options.concurrency ?? 16;
  const replayBatch = options.replayBatch ?? 256;
  const retryInitialMs = options.retryInitialMs ?? 100;
  const retryMaxMs = options.retryMaxMs ?? 5_000;
  const closeTimeoutMs = options.closeTimeoutMs ?? 5_000;
  // No cap by default: the stream's consumers remove what every group has acked (trimAcked), and a
  // cap would drop entries a slow or stopped writer has not read. A full Redis refuses appends, and
  // the events go to the spill.
  const append = options.streamMaxLen ? { maxLen: options.streamMaxLen } : {};

  const queue = new Deque<SecurityEvent>();
  const builds: Array<() => SecurityEvent | readonly SecurityEvent[]> = [];
  const counts = { emitted: 0, appended: 0, dropped: 0, failures: 0, buildErrors: 0, replayed: 0 };
  /** Direct appends in flight (one slot each: the same event object may be emitted twice); close() spills those still out when it gives up. */
  const inFlight = new Set<{ event: SecurityEvent }>();
  /** Events of the replay round in flight (0: none). */
  let replaying = 0;
  let scheduled = false;
  let retryTimer: NodeJS.Timeout | undefined;
  /** 0 while the stream is healthy; the current retry delay during an outage. */
  let backoffMs = 0;
  let outage = { since: 0, droppedAtStart: 0 };
  /** One "buffer full" line per episode (reset when the buffer empties). */
  let overflowLogged = false;
  let closing: Promise<void> | undefined;
  /** After close() gave up: nothing more is appended or spilled. */
  let abandoned = false;
  const idleWaiters = new Set<() => void>();
  /** The in-process stream's count of entries trimmed unread, as of the last ERROR line about it. */
  const trims = { said: 0, at: 0 };

  const buffered = (): number => queue.length + inFlight.size;
  /** While anything is in the spill, new events queue behind it there, which keeps them in order. */
  const spilling = (): boolean => spill !== undefined && (backoffMs > 0 || spill.pending > 0 || replaying > 0 || !spill.drained);
  const idle = (): boolean => buffered() === 0 && builds.length === 0 && replaying === 0 && (spill === undefined || (spill.pending === 0 && spill.drained));

  function drop(n: number, why: string): void {
    counts.dropped += n;
    if (overflowLogged) return;
    overflowLogged = true;
    logger?.error({ stream, dropped: counts.dropped, buffered: buffered(), maxBuffer }, `security events dropped: ${why}`);
  }

  function enqueue(input: SecurityEvent | readonly SecurityEvent[], accepted: boolean): void {
    const list = isList(input) ? input : [input];
    for (const event of list) {
      counts.emitted++;
      if (!accepted) drop(1, 'emitted after close');
      else if (spill !== undefined && (spilling() || buffered() >= maxBuffer)) spill.push(event);
      else if (buffered() >= maxBuffer) drop(1, 'the buffer is full');
      else queue.push(event);
    }
  }

  function schedule(): void {
    if (scheduled || abandoned) return;
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

  function appendOne(event: SecurityEvent): Promise<string> {
    try {
      return events.append(stream, event, append);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  function pump(): void {
    scheduled = false;
    if (abandoned) return;
    runBuilds();
    spill?.writePending();
    if (retryTimer === undefined) {
      // During an outage one append probes the stream; full concurrency resumes on its success.
      const limit = backoffMs > 0 ? 1 : concurrency;
      if (spill !== undefined && backoffMs > 0) {
        if (replaying === 0) replay(1);
      } else {
        while (inFlight.size < limit && queue.length > 0) sendDirect(queue.shift() as SecurityEvent);
        // The memory queue holds events older than the spill's: it goes first.
        if (spill !== undefined && buffered() === 0 && replaying === 0 && spill.readable) replay(replayBatch);
      }
    }
    settle();
  }

  function sendDirect(event: SecurityEvent): void {
    const slot = { event };
    inFlight.add(slot);
    appendOne(event).then(
      () => {
        if (!inFlight.delete(slot)) return; // close() gave up on it and spilled it
        counts.appended++;
        recovered();
        sayTrims();
        pump();
      },
      (err: unknown) => {
        if (!inFlight.delete(slot)) return;
        counts.failures++;
        if (abandoned) {
          counts.dropped++;
          settle();
          return;
        }
        if (spill !== undefined) {
          // To disk with everything queued behind it, so an outage holds no events in memory.
          spill.push(event);
          for (let e = queue.shift(); e !== undefined; e = queue.shift()) spill.push(e);
          spill.writePending();
        } else {
          queue.unshift(event);
        }
        retryLater(err);
      },
    );
  }

  /** Appends the next `max` events of the spill; they are forgotten there only once all were appended. */
  function replay(max: number): void {
    if (spill === undefined) return;
    const batch = spill.read(max);
    if (batch.length === 0) {
      spill.commit(); // only unreadable records were left
      return;
    }
    replaying = batch.length;
    let failure: { err: unknown } | undefined;
    const settled = (): void => {
      if (--replaying > 0 || abandoned) return;
      if (failure !== undefined) {
        spill.rewind();
        retryLater(failure.err);
      } else {
        spill.commit();
        counts.replayed += batch.length;
        counts.appended += batch.length;
        recovered();
        pump();
      }
    };
    for (const event of batch) {
      appendOne(event).then(settled, (err: unknown) => {
        counts.failures++;
        failure ??= { err };
        settled();
      });
    }
  }

  /** An in-process stream without a reader loses its oldest entries to the cap: said at most once a minute. */
  function sayTrims(): void {
    const total = events.trimmedUnread;
    if (total === undefined || total === trims.said || Date.now() - trims.at < 60_000) return;
    logger?.error(
      { stream, trimmed_unread: total - trims.said, total },
      'security events were removed from the in-process event stream before any reader took them: no event writer runs in this process (set REDIS_URL, or run the event writer here)',
    );
    trims.said = total;
    trims.at = Date.now();
  }

  function recovered(): void {
    if (backoffMs === 0) return;
    logger?.info(
      { stream, outage_ms: Date.now() - outage.since, dropped_during_outage: counts.dropped + (spill?.stats.dropped ?? 0) - outage.droppedAtStart, buffered: buffered(), spill_bytes: spill?.stats.bytes },
      spill ? 'event stream available again; replaying the spilled security events' : 'event stream available again; sending buffered security events',
    );
    backoffMs = 0;
  }

  function retryLater(err: unknown): void {
    if (retryTimer !== undefined) return; // the outage is already being handled
    if (backoffMs === 0) {
      outage = { since: Date.now(), droppedAtStart: counts.dropped + (spill?.stats.dropped ?? 0) };
      backoffMs = retryInitialMs;
      logger?.warn(
        { stream, err: errorMessage(err), buffered: buffered(), maxBuffer },
        spill ? 'event stream unavailable; spilling security events to disk and retrying' : 'event stream unavailable; buffering security events and retrying',
      );
    } else if (inFlight.size === 0 && replaying === 0) {
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
    if (!idle()) return;
    overflowLogged = false;
    for (const wake of [...idleWaiters]) wake();
  }

  function flush(timeoutMs = 5_000): Promise<boolean> {
    if (idle()) return Promise.resolve(true);
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
    // Retry at once instead of waiting out a long backoff: this is the last chance. With a spill and
    // the stream down, there is nothing to wait for: what is left goes to disk for the next start.
    if (retryTimer !== undefined) {
      clearTimeout(retryTimer);
      retryTimer = undefined;
      backoffMs = Math.min(backoffMs, retryInitialMs);
    }
    pump();
    const drained = spill !== undefined && backoffMs > 0 ? (runBuilds(), false) : await flush(timeoutMs);
    abandoned = true;
    clearTimeout(retryTimer);
    retryTimer = undefined;
    if (spill !== undefined) {
      const left = [...[...inFlight].map((s) => s.event), ...drainQueue()];
      inFlight.clear();
      for (const e of left) spill.push(e);
      spill.writePending();
      spill.rewind(); // a replay round still out stays in the journal
      const { bytes } = spill.stats;
      spill.close();
      if (!drained) logger?.warn({ stream, spilled_now: left.length, spill_bytes: bytes }, 'event emitter closed with security events in the spill journal; they are sent when the gateway starts again');
      return;
    }
    if (drained) return;
    const left = queue.clear();
    counts.dropped += left;
    logger?.error({ stream, dropped: left, in_flight: inFlight.size }, `event emitter closed with ${left} security events not appended`);
  }

  function drainQueue(): SecurityEvent[] {
    const out: SecurityEvent[] = [];
    for (let e = queue.shift(); e !== undefined; e = queue.shift()) out.push(e);
    return out;
  }

  // A journal left by a previous run is replayed from the start.
  if (spill !== undefined && !spill.drained) schedule();

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
      if (closing !== undefined) {
        counts.emitted++;
        drop(1, 'emitted after close');
        return;
      }
      // Bounded like the buffer (a builder yields at least one event). With a spill, a long backlog of
      // builders is built now and spilled; without one, a refused builder counts as one dropped event.
      if (builds.length >= maxBuffer) {
        if (spill === undefined) {
          counts.emitted++;
          drop(1, 'the buffer is full');
          return;
        }
        runBuilds();
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
      const s = spill?.stats;
      return {
        ...counts,
        dropped: counts.dropped + (s?.dropped ?? 0),
        buffered: buffered() + (spill?.pending ?? 0),
        spilled: s?.spilled ?? 0,
        spillBytes: s?.bytes ?? 0,
        trimmedUnread: events.trimmedUnread ?? 0,
        degraded: backoffMs > 0,
      };
    },
  };
}
