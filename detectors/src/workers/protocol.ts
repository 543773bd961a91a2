// The messages between a worker pool (pool.ts, main thread) and its workers (serve.ts), whatever the
// work: the pool sends inputs and cancels, a worker answers once ready and then per input.

/** workerData of every pool worker: the pool's nice level and the detector's own start options. */
export interface WorkerStart<Init> {
  /** Added to the worker thread's nice value (Linux): the event loop goes first on a busy machine. */
  niceness: number;
  init: Init;
}

export type WorkerRequest<Input> = { type: 'run'; id: number; input: Input } | { type: 'cancel'; id: number };

/** A failure as it crosses the thread boundary: the catalogue code when it was a PalisadeError. */
export interface WorkerFailure {
  code?: string;
  message: string;
  name?: string;
}

export type WorkerReply<Ready, Result> =
  | { type: 'ready'; ready: Ready }
  | { type: 'start-failed'; error: WorkerFailure }
  | { type: 'warn'; message: string }
  | { type: 'result'; id: number; result: Result }
  | { type: 'error'; id: number; error: WorkerFailure };
