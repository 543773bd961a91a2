// The threat detector off the event loop: N worker threads, each with its own in-thread detector
// (detector.ts) and onnxruntime session, behind the same ThreatDetector contract. The calling thread
// only validates the request and posts the prompt (a string copy, microseconds), so a gateway or
// service under load keeps its event loop for I/O while features and inference run on other cores.
//
// Prompts wait in one queue of the pool and a worker is handed the next one only when it is free
// (one prompt per worker at a time). Posting each prompt to a worker on arrival, as before, let a
// worker's own queue grow behind a long prompt while the other worker idled, and a prompt whose caller
// had given up (deadline, abort) still cost a worker its full time, because the cancel message queued
// behind it: under a burst the backlog fed on itself. Now an aborted prompt that is still queued
// never reaches a worker. A worker that dies fails its prompt (503, so the pipeline's
// action_on_detector_error applies) and is replaced. An aborted call answers at once and tells its
// worker to stop the prompt between onnxruntime chunks.
import { Worker } from 'node:worker_threads';
import { isErrorCode, PalisadeError } from '@palisade/core';
import type { DetectorCallOptions } from '../contract.js';
import { threatAbortError, threatDetectOver, type ThreatDetector, type ThreatDeviceInfo, type ThreatScoreResult } from './detector.js';
import type { ThreatDevice, ThreatLogger } from './device.js';
import { THREAT_LIMITS, threatWorkerCount } from './limits.js';
import type { ThreatModelMetadata } from './model-files.js';
import type { ThreatWorkerFailure, ThreatWorkerInit, ThreatWorkerReply, ThreatWorkerRequest } from './worker-protocol.js';

export interface ThreatWorkerPoolOptions {
  /** Worker threads; default threatWorkerCount(). */
  workers?: number;
  modelPath?: string | undefined;
  device?: ThreatDevice;
  logger?: ThreatLogger;
  threshold?: number;
  /** Threads per onnxruntime run inside a worker (default 1: the workers use the cores). */
  intraOpThreads?: number;
  /**
   * Added to each worker thread's nice value on Linux (default 5), so that the event loop of the
   * process, which carries every request's I/O, is scheduled before inference when cores are short.
   */
  niceness?: number;
  /** The worker script; default worker-main. Tests start a worker that misbehaves on purpose. */
  workerScript?: URL;
}

export interface ThreatWorkerPool extends ThreatDetector {
  /** Workers running now and prompts waiting or scoring in them. */
  stats(): { workers: number; inFlight: number; restarts: number };
}

/** Compiled, the worker is worker-main.js; run from source (tests), worker-main.ts with the same loader. */
function defaultWorkerScript(): URL {
  const extension = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
  return new URL(`./worker-main.${extension}`, import.meta.url);
}

function rebuild(error: ThreatWorkerFailure): Error {
  if (error.code && isErrorCode(error.code)) return new PalisadeError(error.code, { message: error.message });
  const rebuilt = new Error(`threat worker: ${error.message}`);
  if (error.name) rebuilt.name = error.name;
  return rebuilt;
}

interface Pending {
  resolve(result: ThreatScoreResult): void;
  reject(error: unknown): void;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
}

interface Job {
  id: number;
  prompt: string;
  pending: Pending;
  /** The worker it was handed to; undefined while it waits in the pool's queue. */
  slot?: Slot;
}

/** Prompts a worker holds at once: one, so a free worker always takes the oldest waiting prompt. */
const PROMPTS_PER_WORKER = 1;

interface Ready {
  metadata: ThreatModelMetadata;
  device: ThreatDevice;
  deviceInfo: ThreatDeviceInfo;
}

export async function createThreatWorkerPool(options: ThreatWorkerPoolOptions = {}): Promise<ThreatWorkerPool> {
  const count = options.workers ?? threatWorkerCount();
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`threat workers must be a positive integer, not ${count}`);
  const init: ThreatWorkerInit = { modelPath: options.modelPath, device: options.device ?? 'cpu', intraOpThreads: options.intraOpThreads ?? 1, niceness: options.niceness ?? 5 };
  const script = options.workerScript ?? defaultWorkerScript();
  const logger = options.logger ?? { warn: (message: string) => process.stderr.write(`${message}\n`) };
  // Every worker loads the same model on the same device: a warning (CUDA fallback) is said once.
  const warned = new Set<string>();
  const warn = (message: string) => {
    if (warned.has(message)) return;
    warned.add(message);
    logger.warn(message);
  };

  const slots: Slot[] = [];
  // FIFO of waiting prompts (an array and a head index: O(1) per step); `waiting` holds the ones not
  // yet handed out, so an abort can take a prompt out of the queue without a scan.
  let queue: Job[] = [];
  let queueHead = 0;
  const waiting = new Map<number, Job>();
  let nextId = 1;
  let closed = false;
  let restarts = 0;

  /** Starts a worker and resolves once its model is loaded; rejects when it cannot load. */
  const start = (): Promise<{ slot: Slot; ready: Ready }> =>
    new Promise((resolve, reject) => {
      const worker = new Worker(script, { workerData: init });
      const slot: Slot = { worker, pending: new Map() };
      let started = false;
      worker.on('message', (reply: ThreatWorkerReply) => {
        switch (reply.type) {
          case 'ready':
            started = true;
            resolve({ slot, ready: reply });
            return;
          case 'start-failed':
            reject(rebuild(reply.error));
            void worker.terminate();
            return;
          case 'warn':
            warn(reply.message);
            return;
          case 'result':
          case 'error': {
            const pending = slot.pending.get(reply.id);
            if (!pending) return; // aborted: the caller has its answer already
            slot.pending.delete(reply.id);
            if (reply.type === 'result') pending.resolve(reply.result);
            else pending.reject(rebuild(reply.error));
            dispatch();
          }
        }
      });
      worker.on('error', (error) => {
        if (!started) reject(error);
      });
      worker.on('exit', (code) => {
        if (!started) {
          reject(new Error(`the threat worker exited with code ${code} while loading the model`));
          return;
        }
        for (const pending of slot.pending.values()) {
          pending.reject(new PalisadeError('SERVICE_UNAVAILABLE', { message: `the threat worker stopped (exit code ${code})` }));
        }
        slot.pending.clear();
        const index = slots.indexOf(slot);
        if (index >= 0) slots.splice(index, 1);
        if (!closed) {
          replace();
          dispatch();
        }
      });
    });

  const replace = () => {
    restarts++;
    start().then(
      ({ slot }) => {
        if (closed) void slot.worker.terminate();
        else {
          slots.push(slot);
          dispatch();
        }
      },
      (error: unknown) => {
        warn(`threat worker could not be restarted: ${error instanceof Error ? error.message : String(error)}`);
        if (slots.length > 0) return;
        // No worker left to take them: the waiting prompts fail now rather than wait for ever.
        for (const job of waiting.values()) job.pending.reject(new PalisadeError('SERVICE_UNAVAILABLE', { message: 'no threat worker is running' }));
        waiting.clear();
      },
    );
  };

  const first = await Promise.allSettled(Array.from({ length: count }, start));
  const failed = first.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    closed = true;
    await Promise.all(first.map((r) => (r.status === 'fulfilled' ? r.value.slot.worker.terminate() : undefined)));
    throw failed.reason;
  }
  const started = first as Array<PromiseFulfilledResult<{ slot: Slot; ready: Ready }>>;
  for (const r of started) slots.push(r.value.slot);
  const { metadata, device, deviceInfo } = started[0]!.value.ready;

  /** Hands waiting prompts, oldest first, to the workers that have room. */
  function dispatch(): void {
    for (const slot of slots) {
      while (slot.pending.size < PROMPTS_PER_WORKER && queueHead < queue.length) {
        const job = queue[queueHead++]!;
        if (!waiting.delete(job.id)) continue; // aborted while it waited
        job.slot = slot;
        slot.pending.set(job.id, job.pending);
        slot.worker.postMessage({ type: 'score', id: job.id, prompt: job.prompt } satisfies ThreatWorkerRequest);
      }
    }
    if (queueHead === queue.length) {
      queue = [];
      queueHead = 0;
    } else if (queueHead > 1024 && queueHead * 2 > queue.length) {
      queue = queue.slice(queueHead);
      queueHead = 0;
    }
  }

  const score = (prompt: string, call: Pick<DetectorCallOptions, 'signal'> = {}): Promise<ThreatScoreResult> => {
    if (closed) return Promise.reject(new PalisadeError('SERVICE_UNAVAILABLE', { message: 'The threat detector is closed' }));
    const signal = call.signal;
    if (signal?.aborted) return Promise.reject(threatAbortError(signal));
    if (slots.length === 0) return Promise.reject(new PalisadeError('SERVICE_UNAVAILABLE', { message: 'no threat worker is running' }));
    const id = nextId++;
    return new Promise<ThreatScoreResult>((resolve, reject) => {
      const onAbort = () => {
        if (waiting.delete(id)) {
          reject(threatAbortError(signal!));
          return;
        }
        const slot = job.slot;
        if (!slot?.pending.delete(id)) return;
        slot.worker.postMessage({ type: 'cancel', id } satisfies ThreatWorkerRequest);
        reject(threatAbortError(signal!));
        dispatch();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const settle = <T>(fn: (value: T) => void) => (value: T) => {
        signal?.removeEventListener('abort', onAbort);
        fn(value);
      };
      const job: Job = { id, prompt, pending: { resolve: settle(resolve), reject: settle(reject) } };
      waiting.set(id, job);
      queue.push(job);
      dispatch();
    });
  };

  return {
    kind: 'threat',
    modelVersion: metadata.version,
    metadata,
    device,
    deviceInfo: () => deviceInfo,
    score,
    detect: threatDetectOver(score, metadata.version, options.threshold ?? THREAT_LIMITS.defaultThreshold),
    stats: () => ({ workers: slots.length, inFlight: waiting.size + slots.reduce((n, s) => n + s.pending.size, 0), restarts }),
    async close() {
      if (closed) return;
      closed = true;
      for (const job of waiting.values()) job.pending.reject(new PalisadeError('SERVICE_UNAVAILABLE', { message: 'The threat detector is closed' }));
      waiting.clear();
      queue = [];
      queueHead = 0;
      const stopping = slots.splice(0);
      for (const slot of stopping) {
        for (const pending of slot.pending.values()) pending.reject(new PalisadeError('SERVICE_UNAVAILABLE', { message: 'The threat detector is closed' }));
        slot.pending.clear();
      }
      await Promise.all(stopping.map((slot) => slot.worker.terminate()));
    },
  };
}
