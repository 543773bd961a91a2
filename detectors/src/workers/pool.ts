// N worker threads that run one kind of detector work off the event loop (the threat model, PII
// detection of large texts), behind a promise per input. The calling thread only posts the input
// (a string copy), so a gateway under load keeps its event loop for I/O.
//
// Inputs wait in one queue of the pool and a worker is handed the next one only when it is free (one
// input per worker at a time). Posting each input to a worker on arrival let a worker's own queue
// grow behind a long input while another worker idled, and an input whose caller had given up
// (deadline, abort) still cost a worker its full time, because the cancel message queued behind it.
// An input aborted while queued never reaches a worker; an input aborted while running answers at
// once, its worker is told to stop and its late result is dropped. A worker that dies fails its input
// (503, so the pipeline's action_on_detector_error applies) and is replaced.
import type { WorkerRequest, WorkerStart } from './protocol.js';
import { createWaitingQueue } from './waiting.js';
import { launchWorker, unavailable, type Pending, type Slot } from './worker.js';

export interface WorkerPoolOptions<Init> {
  /** Names the workers in errors and warnings ("threat", "PII"). */
  name: string;
  workers: number;
  /** The worker script: one that calls serveWorker (serve.ts). */
  script: URL;
  /** The detector's own start options, handed to the worker's setup. */
  init: Init;
  /** Added to each worker thread's nice value on Linux (default 5): the event loop goes first. */
  niceness?: number;
  /** A worker's warning; the same message from several workers is passed on once. */
  warn(message: string): void;
  /** The error a call rejects with when its signal aborts. */
  abortError(signal: AbortSignal): Error;
}

export interface WorkerPoolStats {
  workers: number;
  /** Inputs waiting in the queue or running in a worker. */
  inFlight: number;
  restarts: number;
}

export interface WorkerPool<Input, Result, Ready> {
  /** What the first worker answered once started (e.g. the model it loaded). */
  readonly ready: Ready;
  run(input: Input, signal?: AbortSignal): Promise<Result>;
  stats(): WorkerPoolStats;
  close(): Promise<void>;
}

interface Job<Input, Result> {
  id: number;
  input: Input;
  pending: Pending<Result>;
  /** The worker it was handed to; undefined while it waits in the pool's queue. */
  slot?: Slot<Result>;
}

/** The same message from several workers is passed on once. */
function onceEach(warn: (message: string) => void): (message: string) => void {
  const warned = new Set<string>();
  return (message) => {
    if (warned.has(message)) return;
    warned.add(message);
    warn(message);
  };
}

/** Starts `count` workers at once; when one cannot start, the others are stopped (after `abandon`) and its error thrown. */
async function startAll<Started extends { slot: Slot<unknown> }>(count: number, launch: () => Promise<Started>, abandon: () => void): Promise<Started[]> {
  const first = await Promise.allSettled(Array.from({ length: count }, launch));
  const failed = first.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    abandon();
    await Promise.all(first.map((r) => (r.status === 'fulfilled' ? r.value.slot.worker.terminate() : undefined)));
    throw failed.reason;
  }
  return (first as Array<PromiseFulfilledResult<Started>>).map((r) => r.value);
}

/** Inputs a worker holds at once: one, so a free worker always takes the oldest waiting input. */
const INPUTS_PER_WORKER = 1;

export async function createWorkerPool<Init, Input, Result, Ready>(options: WorkerPoolOptions<Init>): Promise<WorkerPool<Input, Result, Ready>> {
  const { name, script } = options;
  if (!Number.isInteger(options.workers) || options.workers < 1) throw new RangeError(`${name} workers must be a positive integer, not ${options.workers}`);
  const start: WorkerStart<Init> = { niceness: options.niceness ?? 5, init: options.init };
  const warn = onceEach(options.warn);

  const slots: Array<Slot<Result>> = [];
  const waiting = createWaitingQueue<Job<Input, Result>>();
  let nextId = 1;
  let closed = false;
  let restarts = 0;

  const launch = () =>
    launchWorker<Init, Ready, Result>(name, script, start, {
      warn,
      answered: () => dispatch(),
      exited(slot) {
        const index = slots.indexOf(slot);
        if (index >= 0) slots.splice(index, 1);
        if (!closed) {
          replace();
          dispatch();
        }
      },
    });

  const replace = () => {
    restarts++;
    launch().then(
      ({ slot }) => {
        if (closed) void slot.worker.terminate();
        else {
          slots.push(slot);
          dispatch();
        }
      },
      (error: unknown) => {
        warn(`${name} worker could not be restarted: ${error instanceof Error ? error.message : String(error)}`);
        if (slots.length > 0) return;
        // No worker left to take them: the waiting inputs fail now rather than wait for ever.
        for (const job of waiting.drain()) job.pending.reject(unavailable(`no ${name} worker is running`));
      },
    );
  };

  // Closed before the others stop, so that their exits start no replacements.
  const launched = await startAll(options.workers, launch, () => (closed = true));
  for (const { slot } of launched) slots.push(slot);

  /** Hands waiting inputs, oldest first, to the workers that have room. */
  function dispatch(): void {
    for (const slot of slots) {
      while (slot.pending.size < INPUTS_PER_WORKER) {
        const job = waiting.next();
        if (!job) break;
        job.slot = slot;
        slot.pending.set(job.id, job.pending);
        slot.worker.postMessage({ type: 'run', id: job.id, input: job.input } satisfies WorkerRequest<Input>);
      }
    }
  }

  const run = (input: Input, signal?: AbortSignal): Promise<Result> => {
    if (closed) return Promise.reject(unavailable(`The ${name} detector is closed`));
    if (signal?.aborted) return Promise.reject(options.abortError(signal));
    if (slots.length === 0) return Promise.reject(unavailable(`no ${name} worker is running`));
    const id = nextId++;
    return new Promise<Result>((resolve, reject) => {
      const onAbort = () => {
        if (waiting.remove(id)) {
          reject(options.abortError(signal!));
          return;
        }
        const slot = job.slot;
        if (!slot?.pending.delete(id)) return;
        slot.worker.postMessage({ type: 'cancel', id } satisfies WorkerRequest<Input>);
        reject(options.abortError(signal!));
        dispatch();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const settle = <T>(fn: (value: T) => void) => (value: T) => {
        signal?.removeEventListener('abort', onAbort);
        fn(value);
      };
      const job: Job<Input, Result> = { id, input, pending: { resolve: settle(resolve), reject: settle(reject) } };
      waiting.push(job);
      dispatch();
    });
  };

  return {
    ready: launched[0]!.ready,
    run,
    stats: () => ({ workers: slots.length, inFlight: waiting.size + slots.reduce((n, s) => n + s.pending.size, 0), restarts }),
    async close() {
      if (closed) return;
      closed = true;
      const closedError = () => unavailable(`The ${name} detector is closed`);
      for (const job of waiting.drain()) job.pending.reject(closedError());
      const stopping = slots.splice(0);
      for (const slot of stopping) {
        for (const pending of slot.pending.values()) pending.reject(closedError());
        slot.pending.clear();
      }
      await Promise.all(stopping.map((slot) => slot.worker.terminate()));
    },
  };
}
