// The appends to the event stream. New events go one each (the emitter's pump keeps up to its
// concurrency out); the spill's go in rounds that the journal forgets only once every event of the
// round was appended. A failed append of a new event hands it, and everything queued behind it, to the
// spill (so an outage holds no events in memory), or back to the front of the queue without one; any
// failure starts or continues the outage's retry loop, and any success ends it.
import type { EventStream, SecurityEvent } from '@palisade/core';
import type { AppendSlot, EventBuffer } from './emitter-buffer.js';
import type { StreamOutage } from './emitter-outage.js';
import type { EmitterContext } from './emitter-types.js';

export interface StreamAppendsOptions extends EmitterContext {
  events: EventStream;
  /** Caps the stream at about this many entries (none when unset or 0). */
  streamMaxLen: number | undefined;
  buffer: EventBuffer;
  outage: StreamOutage;
  /** After a successful append: what waits may go now. */
  pump(): void;
  /** After a successful append of a new event. */
  afterAppend(): void;
  /** Whether close() gave up: a failure then is a loss, not a retry. */
  abandoned(): boolean;
  /** After a failure that close() gave up on: the emitter may be idle now. */
  settle(): void;
}

export interface StreamAppends {
  /** Events of the replay round in flight (0: none). */
  readonly replaying: number;
  /** Appends the event of a slot the buffer handed out. */
  send(slot: AppendSlot): void;
  /** Appends the next `max` events of the spill. */
  replay(max: number): void;
}

export function createStreamAppends(options: StreamAppendsOptions): StreamAppends {
  const { events, stream, counts, spill, buffer, outage } = options;
  // No cap by default: the stream's consumers remove what every group has acked (trimAcked), and a
  // cap would drop entries a slow or stopped writer has not read. A full Redis refuses appends, and
  // the events go to the spill.
  const append = options.streamMaxLen ? { maxLen: options.streamMaxLen } : {};
  let replaying = 0;

  function appendOne(event: SecurityEvent): Promise<string> {
    try {
      return events.append(stream, event, append);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** Tells the outage; a failure while other appends are out does not grow the delay. */
  const failed = (err: unknown): void => outage.failed(err, buffer.inFlight === 0 && replaying === 0);

  function sendFailed(event: SecurityEvent, err: unknown): void {
    counts.failures++;
    if (options.abandoned()) {
      counts.dropped++;
      options.settle();
      return;
    }
    if (spill !== undefined) {
      // To disk with everything queued behind it, so an outage holds no events in memory.
      spill.push(event);
      for (const e of buffer.takeQueued()) spill.push(e);
      spill.writePending();
    } else {
      buffer.requeue(event);
    }
    failed(err);
  }

  function send(slot: AppendSlot): void {
    appendOne(slot.event).then(
      () => {
        if (!buffer.endAppend(slot)) return; // close() gave up on it and spilled it
        counts.appended++;
        outage.recovered();
        options.afterAppend();
        options.pump();
      },
      (err: unknown) => {
        if (buffer.endAppend(slot)) sendFailed(slot.event, err);
      },
    );
  }

  /** The spill forgets the events of a round only once all were appended. */
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
      if (--replaying > 0 || options.abandoned()) return;
      if (failure !== undefined) {
        spill.rewind();
        failed(failure.err);
      } else {
        spill.commit();
        counts.replayed += batch.length;
        counts.appended += batch.length;
        outage.recovered();
        options.pump();
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

  return {
    get replaying() {
      return replaying;
    },
    send,
    replay,
  };
}
