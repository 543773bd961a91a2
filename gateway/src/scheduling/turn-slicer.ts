// Bounds the inspection work that one turn of the event loop runs. Under load many requests become
// ready in the same turn (a burst of sockets, a burst of verdicts from the threat workers); running all
// their CPU stages back to back delays every timer and socket behind them: the event-loop delay of the
// issue-4 target, and detector timeouts that fire late. So each CPU stage first asks for a turn. While
// the current stretch of the loop has used less than `sliceMs`, it runs at once (no await, no
// allocation); after that it waits, first come first served, for a later turn, and timers and I/O run
// in between. Node has nothing of the kind: setImmediate alone runs everything queued in one check phase.
import { performance } from 'node:perf_hooks';
import { Deque } from '../events/deque.js';

export interface TurnSlicer {
  /**
   * undefined: run now. A promise: wait for it; it resolves in a later turn of the loop. Use as
   * `const wait = slicer.turn(); if (wait) await wait;` so that an unloaded call costs no await.
   * `onWaited` learns how long a caller waited (ms), when it did.
   */
  turn(onWaited?: (ms: number) => void): Promise<void> | undefined;
  /** Callers waiting for a turn right now. */
  readonly waiting: number;
}

export interface TurnSlicerOptions {
  /** How long the stages of one stretch of the loop may run before the rest wait (default 2 ms). */
  sliceMs?: number;
  now?: () => number;
}

export function createTurnSlicer(options: TurnSlicerOptions = {}): TurnSlicer {
  const sliceMs = options.sliceMs ?? 2;
  const now = options.now ?? (() => performance.now());
  const queue = new Deque<{ wake: () => void; since: number; onWaited: ((ms: number) => void) | undefined }>();
  /** An end-of-turn check is scheduled: the stretch that began at stretchStart is open. */
  let scheduled = false;
  let stretchStart = 0;
  /** The last end of turn woke nobody: the next one wakes at least one, so waiters always move. */
  let starved = false;

  // Runs in the check phase, after this turn's I/O callbacks, with what is left of the stretch. A
  // woken caller's synchronous stage runs (as a microtask) before the clock is read for the next one.
  function endOfTurn(): void {
    let woke = 0;
    const step = (): void => {
      if (queue.length > 0 && ((starved && woke === 0) || now() - stretchStart < sliceMs)) {
        woke++;
        const waiter = queue.shift()!;
        waiter.onWaited?.(now() - waiter.since);
        waiter.wake();
        queueMicrotask(step);
        return;
      }
      starved = queue.length > 0 && woke === 0;
      // The next stretch starts now: the next turn's timers come first, then its I/O, then this again.
      stretchStart = now();
      if (queue.length > 0) setImmediate(endOfTurn);
      else scheduled = false;
    };
    step();
  }

  return {
    turn(onWaited) {
      if (!scheduled) {
        scheduled = true;
        stretchStart = now();
        setImmediate(endOfTurn);
      }
      if (queue.length === 0 && now() - stretchStart < sliceMs) return undefined;
      return new Promise<void>((wake) => queue.push({ wake, since: now(), onWaited }));
    },
    get waiting() {
      return queue.length;
    },
  };
}
