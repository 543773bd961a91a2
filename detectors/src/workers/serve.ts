// The worker side of a pool (pool.ts): lowers the thread's priority, starts the detector with the
// pool's options, then runs the inputs the pool sends, one at a time (the pool hands a worker one
// input at a time), and stops one when the pool cancels it.
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { isPalisadeError } from '@palisade/core';
import type { WorkerFailure, WorkerReply, WorkerRequest, WorkerStart } from './protocol.js';

export interface WorkerJob<Input, Result, Ready> {
  ready: Ready;
  run(input: Input, signal: AbortSignal): Promise<Result>;
}

function failure(error: unknown): WorkerFailure {
  if (isPalisadeError(error)) return { code: error.code, message: error.message };
  if (error instanceof Error) return { message: error.message, name: error.name };
  return { message: String(error) };
}

/**
 * Lowers this thread's CPU priority, so that on a busy machine the event loop (I/O of every request)
 * runs before the worker. Linux allows a priority per thread: /proc/thread-self names this thread's
 * id. Elsewhere, or without permission, the thread keeps the process's priority.
 */
function lowerPriority(niceness: number): void {
  if (niceness === 0 || process.platform !== 'linux') return;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, Math.min(19, getPriority(tid) + niceness));
  } catch {
    // not permitted or no procfs: same priority as the event loop
  }
}

/** Runs in a worker thread started by createWorkerPool; `setup` builds the detector from its options. */
export async function serveWorker<Init, Input, Result, Ready>(setup: (init: Init, warn: (message: string) => void) => Promise<WorkerJob<Input, Result, Ready>>): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('a pool worker runs as a worker thread of its pool');
  const send = (reply: WorkerReply<Ready, Result>) => port.postMessage(reply);
  const start = workerData as WorkerStart<Init>;
  lowerPriority(start.niceness);
  try {
    const job = await setup(start.init, (message) => send({ type: 'warn', message }));
    const running = new Map<number, AbortController>();
    port.on('message', (message: WorkerRequest<Input>) => {
      if (message.type === 'cancel') {
        running.get(message.id)?.abort();
        return;
      }
      const controller = new AbortController();
      running.set(message.id, controller);
      job
        .run(message.input, controller.signal)
        .then(
          (result) => send({ type: 'result', id: message.id, result }),
          (error: unknown) => send({ type: 'error', id: message.id, error: failure(error) }),
        )
        .finally(() => running.delete(message.id));
    });
    send({ type: 'ready', ready: job.ready });
  } catch (error) {
    send({ type: 'start-failed', error: failure(error) });
  }
}
