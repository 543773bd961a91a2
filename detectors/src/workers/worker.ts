// One worker thread of a pool: started with the pool's start data, its replies routed to the inputs it
// holds, and a failure that crossed the thread boundary rebuilt as an error of this side.
import { Worker } from 'node:worker_threads';
import { isErrorCode, PalisadeError } from '@palisade/core';
import type { WorkerFailure, WorkerReply, WorkerStart } from './protocol.js';

export interface Pending<Result> {
  resolve(result: Result): void;
  reject(error: unknown): void;
}

/** A started worker and the inputs it holds, by id. */
export interface Slot<Result> {
  worker: Worker;
  pending: Map<number, Pending<Result>>;
}

/** What a call fails with when no worker can answer it (503: action_on_detector_error applies). */
export const unavailable = (message: string) => new PalisadeError('SERVICE_UNAVAILABLE', { message });

/** A catalogue error stays one (its code crossed over); anything else names the worker. */
function rebuild(name: string, error: WorkerFailure): Error {
  if (error.code && isErrorCode(error.code)) return new PalisadeError(error.code, { message: error.message });
  const rebuilt = new Error(`${name} worker: ${error.message}`);
  if (error.name) rebuilt.name = error.name;
  return rebuilt;
}

export interface WorkerEvents<Result> {
  warn(message: string): void;
  /** An input got its answer: the worker has room again. */
  answered(): void;
  /** The worker stopped after it had started; the inputs it held have failed already. */
  exited(slot: Slot<Result>): void;
}

/** Starts a worker and resolves once its setup is done; rejects when it cannot start. */
export function launchWorker<Init, Ready, Result>(name: string, script: URL, start: WorkerStart<Init>, events: WorkerEvents<Result>): Promise<{ slot: Slot<Result>; ready: Ready }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(script, { workerData: start });
    const slot: Slot<Result> = { worker, pending: new Map() };
    let started = false;
    worker.on('message', (reply: WorkerReply<Ready, Result>) => {
      switch (reply.type) {
        case 'ready':
          started = true;
          resolve({ slot, ready: reply.ready });
          return;
        case 'start-failed':
          reject(rebuild(name, reply.error));
          void worker.terminate();
          return;
        case 'warn':
          events.warn(reply.message);
          return;
        case 'result':
        case 'error': {
          const pending = slot.pending.get(reply.id);
          if (!pending) return; // aborted: the caller has its answer already
          slot.pending.delete(reply.id);
          if (reply.type === 'result') pending.resolve(reply.result);
          else pending.reject(rebuild(name, reply.error));
          events.answered();
        }
      }
    });
    worker.on('error', (error) => {
      if (!started) reject(error);
    });
    worker.on('exit', (code) => {
      if (!started) {
        reject(new Error(`the ${name} worker exited with code ${code} while starting`));
        return;
      }
      for (const pending of slot.pending.values()) pending.reject(unavailable(`the ${name} worker stopped (exit code ${code})`));
      slot.pending.clear();
      events.exited(slot);
    });
  });
}
