// The worker side of a pool (pool.ts): lowers the thread's priority, starts the detector with the
// pool's options, then runs the inputs the pool sends, one at a time (the pool hands a worker one
// input at a time), and stops one when the pool cancels it.
import { parentPort, workerData } from 'node:worker_threads';
import { currentThreadId, isPalisadeError, lowerThreadPriority } from '@palisade/core';
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
 * runs before the worker. Elsewhere than Linux, or without permission, the thread keeps the process's
 * priority.
 */
function lowerPriority(niceness: number): void {
  const tid = currentThreadId();
  if (tid !== undefined) lowerThreadPriority(tid, niceness);
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
