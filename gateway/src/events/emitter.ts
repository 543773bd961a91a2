// Hands security events to the event stream without touching the request's latency: emit() only
// queues; appends run after the current I/O phase (setImmediate), a bounded number at a time, and
// emitLater() defers even the building of the records (schema validation, tens of µs per event).
//
// With a spill (spill/: a journal on local disk), an outage of the stream or a full memory buffer
// sends events to disk instead; once the stream answers, the journal is replayed in order before new
// events go straight to the stream again, so the events of every answered request reach the stream
// at least once. Only a full journal loses events, counted and logged. Without a spill, events wait
// in the bounded memory buffer and an overflow loses them, counted and logged.
import { createEventBuffer } from './emitter-buffer.js';
import { createStreamAppends } from './emitter-appends.js';
import { createStreamOutage } from './emitter-outage.js';
import { shutDownEmitter } from './emitter-shutdown.js';
import { SECURITY_EVENTS_STREAM, type EmitterContext, type EventEmitter, type EventEmitterOptions, type EventEmitterStats } from './emitter-types.js';
import { createIdleWaiters } from './idle-waiters.js';
import { createTrimWarning } from './trim-warning.js';

export { SECURITY_EVENTS_STREAM, type EventEmitter, type EventEmitterOptions, type EventEmitterStats };

/** Wires the pieces: the memory buffer, the appends, the outage's retry loop, close(). */
export function createEventEmitter(options: EventEmitterOptions): EventEmitter {
  const { events, logger, spill } = options;
  const stream = options.stream ?? SECURITY_EVENTS_STREAM;
  const maxBuffer = options.maxBuffer ?? 10_000;
  const concurrency = options.concurrency ?? 16;
  const replayBatch = options.replayBatch ?? 256;
  const closeTimeoutMs = options.closeTimeoutMs ?? 5_000;
  const context: EmitterContext = { stream, logger, spill, counts: { emitted: 0, appended: 0, dropped: 0, failures: 0, buildErrors: 0, replayed: 0 } };
  let scheduled = false;
  let closing: Promise<void> | undefined;
  /** After close() gave up: nothing more is appended or spilled. */
  let abandoned = false;

  const buffer = createEventBuffer({ ...context, maxBuffer, spilling });
  const outage = createStreamOutage({ ...context, maxBuffer, retryInitialMs: options.retryInitialMs ?? 100, retryMaxMs: options.retryMaxMs ?? 5_000, buffered: () => buffer.size, retry: pump });
  const appends = createStreamAppends({
    ...context,
    events,
    streamMaxLen: options.streamMaxLen,
    buffer,
    outage,
    pump,
    afterAppend: createTrimWarning({ events, stream, logger }),
    abandoned: () => abandoned,
    settle,
  });
  const waiters = createIdleWaiters(idle);

  /** While anything is in the spill, new events queue behind it there, which keeps them in order. */
  function spilling(): boolean {
    return spill !== undefined && (outage.degraded || spill.pending > 0 || appends.replaying > 0 || !spill.drained);
  }

  function idle(): boolean {
    return buffer.size === 0 && buffer.building === 0 && appends.replaying === 0 && (spill === undefined || (spill.pending === 0 && spill.drained));
  }

  function schedule(): void {
    if (scheduled || abandoned) return;
    scheduled = true;
    setImmediate(pump);
  }

  function pump(): void {
    scheduled = false;
    if (abandoned) return;
    buffer.runBuilds();
    spill?.writePending();
    if (!outage.waiting) {
      if (spill !== undefined && outage.degraded) {
        // During an outage one append probes the stream; full concurrency resumes on its success.
        if (appends.replaying === 0) appends.replay(1);
      } else {
        const limit = outage.degraded ? 1 : concurrency;
        for (let slot; buffer.inFlight < limit && (slot = buffer.startAppend()) !== undefined; ) appends.send(slot);
        // The memory queue holds events older than the spill's: it goes first.
        if (spill !== undefined && buffer.size === 0 && appends.replaying === 0 && spill.readable) appends.replay(replayBatch);
      }
    }
    settle();
  }

  function settle(): void {
    if (!idle()) return;
    buffer.overflowOver();
    waiters.wake();
  }

  const flush = (timeoutMs = 5_000): Promise<boolean> => waiters.wait(timeoutMs);
  const shutdown = { ...context, buffer, outage, pump, flush, abandon: () => void (abandoned = true) };

  // A journal left by a previous run is replayed from the start.
  if (spill !== undefined && !spill.drained) schedule();

  return {
    emit(input) {
      try {
        buffer.add(input, closing === undefined);
        schedule();
      } catch {
        // The request path must never fail because of its record; nothing above is expected to throw.
      }
    },
    emitLater(build) {
      if (buffer.defer(build, closing === undefined)) schedule();
    },
    flush,
    close(timeoutMs = closeTimeoutMs) {
      closing ??= shutDownEmitter(shutdown, timeoutMs);
      return closing;
    },
    get stats(): EventEmitterStats {
      const s = spill?.stats;
      return {
        ...context.counts,
        dropped: context.counts.dropped + (s?.dropped ?? 0),
        buffered: buffer.size + (spill?.pending ?? 0),
        spilled: s?.spilled ?? 0,
        spillBytes: s?.bytes ?? 0,
        trimmedUnread: events.trimmedUnread ?? 0,
        degraded: outage.degraded,
      };
    },
  };
}
