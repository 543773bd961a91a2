// The security events the emitter holds in memory: queued, being appended (a slot each: the same
// event object may be emitted twice), and emitLater() builders not run yet. Queued and in-flight
// events together stay within maxBuffer; past it an event goes to the spill or, without one, is
// dropped: counted, and said once per episode (until the emitter is idle again).
import type { SecurityEvent } from '@palisade/core';
import { Deque } from './deque.js';
import type { EmitterContext } from './emitter-types.js';

export type EventBuild = () => SecurityEvent | readonly SecurityEvent[];

export interface EventBufferOptions extends EmitterContext {
  maxBuffer: number;
  /** Whether new events go to the spill, behind the events already there (which keeps them in order). */
  spilling(): boolean;
}

/** One append in flight. */
export interface AppendSlot {
  readonly event: SecurityEvent;
}

export interface EventBuffer {
  /** Events queued or being appended. */
  readonly size: number;
  readonly inFlight: number;
  /** Builders waiting to run. */
  readonly building: number;
  /** Each event into the queue or the spill, or dropped; `accepted` is false once the emitter is closing. */
  add(input: SecurityEvent | readonly SecurityEvent[], accepted: boolean): void;
  /** Holds a builder for the next runBuilds(); false when it was refused (counted as one dropped event). */
  defer(build: EventBuild, accepted: boolean): boolean;
  /** Runs the builders held and adds their events. */
  runBuilds(): void;
  /** The oldest queued event, moved to a slot in flight; undefined when nothing is queued. */
  startAppend(): AppendSlot | undefined;
  /** Frees an append's slot; false when close() took it back already. */
  endAppend(slot: AppendSlot): boolean;
  /** A failed append goes back to the front of the queue. */
  requeue(event: SecurityEvent): void;
  /** Empties the queue, oldest first. */
  takeQueued(): SecurityEvent[];
  /** Empties the slots in flight (close() gave up on their appends). */
  takeInFlight(): SecurityEvent[];
  /** Empties the queue; how many events it held. */
  clearQueue(): number;
  drop(n: number, why: string): void;
  /** The emitter is idle: the next overflow is a new episode, said again. */
  overflowOver(): void;
}

function isList(value: SecurityEvent | readonly SecurityEvent[]): value is readonly SecurityEvent[] {
  return Array.isArray(value);
}

const errorMessage = (err: unknown): string => (err instanceof Error ? err.message : String(err));

export function createEventBuffer(options: EventBufferOptions): EventBuffer {
  const { stream, logger, counts, spill, maxBuffer } = options;
  const queue = new Deque<SecurityEvent>();
  const inFlight = new Set<AppendSlot>();
  const builds: EventBuild[] = [];
  /** One "buffer full" line per episode. */
  let overflowLogged = false;
  const size = (): number => queue.length + inFlight.size;

  function drop(n: number, why: string): void {
    counts.dropped += n;
    if (overflowLogged) return;
    overflowLogged = true;
    logger?.error({ stream, dropped: counts.dropped, buffered: size(), maxBuffer }, `security events dropped: ${why}`);
  }

  function add(input: SecurityEvent | readonly SecurityEvent[], accepted: boolean): void {
    for (const event of isList(input) ? input : [input]) {
      counts.emitted++;
      if (!accepted) drop(1, 'emitted after close');
      else if (spill !== undefined && (options.spilling() || size() >= maxBuffer)) spill.push(event);
      else if (size() >= maxBuffer) drop(1, 'the buffer is full');
      else queue.push(event);
    }
  }

  function runBuilds(): void {
    for (const build of builds.splice(0)) {
      try {
        add(build(), true);
      } catch (err) {
        counts.buildErrors++;
        if (counts.buildErrors === 1) logger?.error({ stream, err: errorMessage(err) }, 'building security events failed; further failures are only counted');
      }
    }
  }

  function defer(build: EventBuild, accepted: boolean): boolean {
    if (!accepted) {
      counts.emitted++;
      drop(1, 'emitted after close');
      return false;
    }
    // Bounded like the buffer (a builder yields at least one event). With a spill, a long backlog of
    // builders is built now and spilled; without one, a refused builder counts as one dropped event.
    if (builds.length >= maxBuffer) {
      if (spill === undefined) {
        counts.emitted++;
        drop(1, 'the buffer is full');
        return false;
      }
      runBuilds();
    }
    builds.push(build);
    return true;
  }

  function takeQueued(): SecurityEvent[] {
    const out: SecurityEvent[] = [];
    for (let e = queue.shift(); e !== undefined; e = queue.shift()) out.push(e);
    return out;
  }

  return {
    get size() {
      return size();
    },
    get inFlight() {
      return inFlight.size;
    },
    get building() {
      return builds.length;
    },
    add,
    defer,
    runBuilds,
    startAppend() {
      const event = queue.shift();
      if (event === undefined) return undefined;
      const slot = { event };
      inFlight.add(slot);
      return slot;
    },
    endAppend: (slot) => inFlight.delete(slot),
    requeue: (event) => queue.unshift(event),
    takeQueued,
    takeInFlight() {
      const out = [...inFlight].map((s) => s.event);
      inFlight.clear();
      return out;
    },
    clearQueue: () => queue.clear(),
    drop,
    overflowOver() {
      overflowLogged = false;
    },
  };
}
