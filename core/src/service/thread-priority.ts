// The event loop first on a busy machine. Linux gives every thread its own nice value, so the threads
// that only help the event loop (V8's garbage-collection helpers, libuv's pool, detector workers) can
// run below the one thread that carries every request's I/O and timers. On two cores a major
// collection's four helper threads at the event loop's priority took the cores from the threat
// workers for ~100 ms at a time, and every request in flight waited (the bench's half-load p99).
import { readdirSync, readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { isMainThread } from 'node:worker_threads';

/** This thread's kernel id (Linux: /proc/thread-self); undefined elsewhere. */
export function currentThreadId(): number | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}

/** Adds `niceness` to one thread's nice value; false where not permitted or the thread is gone. */
export function lowerThreadPriority(tid: number, niceness: number): boolean {
  if (niceness <= 0) return false;
  try {
    setPriority(tid, Math.min(19, getPriority(tid) + niceness));
    return true;
  } catch {
    return false; // not permitted, or the thread ended meanwhile
  }
}

/**
 * Called on the main thread once the process's components have started: every other thread of the
 * process that still runs at the event loop's priority is lowered by `niceness`. Threads that lowered
 * themselves already (detector workers) are left as they are, so a second call lowers only threads
 * started since. Returns how many threads were lowered (0 off Linux or off the main thread).
 */
export function lowerHelperThreadsPriority(niceness: number): number {
  if (process.platform !== 'linux' || !isMainThread || niceness <= 0) return 0;
  let tids: number[];
  let eventLoop: number;
  try {
    tids = readdirSync('/proc/self/task').map(Number);
    eventLoop = getPriority(process.pid); // the main thread's id is the process id
  } catch {
    return 0;
  }
  let lowered = 0;
  for (const tid of tids) {
    if (tid === process.pid || !Number.isInteger(tid)) continue;
    let current: number;
    try {
      current = getPriority(tid);
    } catch {
      continue; // ended since the listing
    }
    if (current === eventLoop && lowerThreadPriority(tid, niceness)) lowered++;
  }
  return lowered;
}
