// The controller's work queue: a key is processed by one handler at a time (a change that arrives
// while it runs makes one more run afterwards, never a parallel one), different keys run side by side
// up to `concurrency`, and a failing key is retried with exponential backoff (reset on success).
// Hand-written: client-node ships informers but no work queue, and client-go's is Go.
import { backoffDelay } from '@palisade/core';

export interface WorkQueueOptions {
  handler: (key: string) => Promise<void>;
  concurrency?: number;
  /** First retry delay (default 500 ms); doubles per failure up to maxBackoffMs (default 60 s). */
  baseBackoffMs?: number;
  maxBackoffMs?: number;
  onError?: (key: string, error: unknown, retryInMs: number) => void;
}

export interface WorkQueue {
  add(key: string): void;
  /** Adds after a delay (a later add of the same key runs sooner and cancels nothing). */
  addAfter(key: string, delayMs: number): void;
  /** Resolves when nothing is queued, running or waiting for a retry. */
  idle(): Promise<void>;
  /** Failures in a row of a key (0 after a success). */
  failures(key: string): number;
  /** Stops taking work and waits for running handlers. */
  shutdown(): Promise<void>;
}

export function createWorkQueue(options: WorkQueueOptions): WorkQueue {
  const concurrency = options.concurrency ?? 4;
  const backoff = { initialMs: options.baseBackoffMs ?? 500, maxMs: options.maxBackoffMs ?? 60_000 };
  const queue: string[] = [];
  const queued = new Set<string>();
  const running = new Map<string, Promise<void>>();
  /** Keys re-added while running: they go back in the queue when the run ends. */
  const dirty = new Set<string>();
  const failureCount = new Map<string, number>();
  const timers = new Map<string, Set<NodeJS.Timeout>>();
  let stopped = false;
  let idleWaiters: Array<() => void> = [];

  const pendingTimers = () => [...timers.values()].reduce((n, s) => n + s.size, 0);
  function checkIdle() {
    if (queue.length === 0 && running.size === 0 && pendingTimers() === 0) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  function add(key: string) {
    if (stopped) return;
    if (running.has(key)) {
      dirty.add(key);
      return;
    }
    if (queued.has(key)) return;
    queued.add(key);
    queue.push(key);
    pump();
  }

  function addAfter(key: string, delayMs: number) {
    if (stopped) return;
    const set = timers.get(key) ?? new Set();
    timers.set(key, set);
    const timer = setTimeout(() => {
      set.delete(timer);
      if (set.size === 0) timers.delete(key);
      add(key);
      checkIdle();
    }, delayMs);
    set.add(timer);
  }

  function pump() {
    while (!stopped && running.size < concurrency) {
      const index = queue.findIndex((k) => !running.has(k));
      if (index < 0) break;
      const [key] = queue.splice(index, 1) as [string];
      queued.delete(key);
      const run = (async () => {
        try {
          await options.handler(key);
          failureCount.delete(key);
        } catch (error) {
          const failures = (failureCount.get(key) ?? 0) + 1;
          failureCount.set(key, failures);
          const delay = backoffDelay(failures - 1, backoff);
          options.onError?.(key, error, delay);
          addAfter(key, delay);
        }
      })().finally(() => {
        running.delete(key);
        if (dirty.delete(key)) add(key);
        pump();
        checkIdle();
      });
      running.set(key, run);
    }
  }

  return {
    add,
    addAfter,
    failures: (key) => failureCount.get(key) ?? 0,
    idle() {
      return new Promise((resolve) => {
        idleWaiters.push(resolve);
        checkIdle();
      });
    },
    async shutdown() {
      stopped = true;
      for (const set of timers.values()) for (const t of set) clearTimeout(t);
      timers.clear();
      queue.length = 0;
      queued.clear();
      dirty.clear();
      await Promise.allSettled([...running.values()]);
      checkIdle();
    },
  };
}
