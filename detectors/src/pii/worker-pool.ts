// The PII detector for a process that serves other requests on the same event loop (the gateway's
// in-process detector): a text up to `inlineMaxChars` is scanned inline, where a scan costs about as
// much as posting it to a thread; a longer one goes to a pool of worker threads (../workers/pool.ts),
// because a 1 MiB text costs about 100 ms of CPU, which would stall every other request. A worker
// pool, not slices of the text: entities can be long (PEM keys, DB URLs) or named far away (a CSV
// header's column, a system prompt), so chunk borders would change the findings. Both paths run the
// same detector with the same options, so they answer alike.
//
// The pool starts on the first long text (most processes never see one). A call whose signal aborts
// (detector_timeout_ms, client gone) answers at once; a queued text is never scanned, a running one
// finishes in its worker and its result is dropped.
import { availableParallelism } from 'node:os';
import { PalisadeError } from '@palisade/core';
import type { DetectorCallOptions } from '../contract.js';
import { createWorkerPool, type WorkerPool, type WorkerPoolStats } from '../workers/pool.js';
import { createPiiDetector, type PiiDetector } from './detector.js';
import { parsePiiDetectRequest, type PiiDetectRequest, type PiiDetectResponse } from './schema.js';

/** Texts up to this many characters are scanned inline: measured at about 2 ms of CPU (README). */
export const PII_INLINE_MAX_CHARS = 32 * 1024;

/** What a PII worker starts its detector with (only data crosses to a thread: no custom rules). */
export interface PiiWorkerInit {
  minScore?: number | undefined;
}

export interface PiiWorkerDetectorOptions extends PiiWorkerInit {
  /** Longer texts go to the workers (default PII_INLINE_MAX_CHARS); 0 sends every text. */
  inlineMaxChars?: number;
  /** Worker threads (default: one per core, at most 2: long texts are rare). */
  workers?: number;
  /** Added to each worker thread's nice value on Linux (default 5): the event loop goes first. */
  niceness?: number;
  /** The worker script; default worker-main. */
  workerScript?: URL;
}

export interface PiiWorkerDetector extends PiiDetector {
  /** The pool's figures; zero workers until the first long text. */
  stats(): WorkerPoolStats;
  close(): Promise<void>;
}

function defaultWorkerScript(): URL {
  const extension = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
  return new URL(`./worker-main.${extension}`, import.meta.url);
}

const abortError = (signal: AbortSignal): Error => (signal.reason instanceof Error ? signal.reason : new DOMException('The PII detection was aborted', 'AbortError'));

export function createPiiWorkerDetector(options: PiiWorkerDetectorOptions = {}): PiiWorkerDetector {
  const init: PiiWorkerInit = options.minScore === undefined ? {} : { minScore: options.minScore };
  const inline = createPiiDetector(init);
  const inlineMaxChars = options.inlineMaxChars ?? PII_INLINE_MAX_CHARS;
  let pool: Promise<WorkerPool<PiiDetectRequest, PiiDetectResponse, null>> | undefined;
  let live: WorkerPool<PiiDetectRequest, PiiDetectResponse, null> | undefined;
  let closed = false;

  const started = () => {
    pool ??= createWorkerPool<PiiWorkerInit, PiiDetectRequest, PiiDetectResponse, null>({
      name: 'PII',
      workers: options.workers ?? Math.max(1, Math.min(2, availableParallelism())),
      script: options.workerScript ?? defaultWorkerScript(),
      init,
      ...(options.niceness === undefined ? {} : { niceness: options.niceness }),
      warn: (message) => process.stderr.write(`${message}\n`),
      abortError,
    }).then(
      (ready) => (live = ready),
      (error: unknown) => {
        pool = undefined; // the next long text tries again
        throw new PalisadeError('SERVICE_UNAVAILABLE', { message: 'the PII workers could not start', cause: error });
      },
    );
    return pool;
  };

  const offloaded = async (request: PiiDetectRequest, signal: AbortSignal | undefined): Promise<PiiDetectResponse> => {
    if (closed) throw new PalisadeError('SERVICE_UNAVAILABLE', { message: 'The PII detector is closed' });
    // Validated here, so a bad or too large request is answered without a thread, and what is posted
    // is the plain parsed object (structured clone).
    const parsed = parsePiiDetectRequest(request);
    const running = await started();
    signal?.throwIfAborted();
    return running.run(parsed, signal);
  };

  return {
    kind: 'pii',
    detect(request: PiiDetectRequest, call: DetectorCallOptions = {}): Promise<PiiDetectResponse> {
      const text = (request as { text?: unknown } | null | undefined)?.text;
      if (typeof text === 'string' && text.length > inlineMaxChars) return offloaded(request, call.signal);
      return inline.detect(request, call);
    },
    stats: () => live?.stats() ?? { workers: 0, inFlight: 0, restarts: 0 },
    async close() {
      closed = true;
      const running = await pool?.catch(() => undefined);
      await running?.close();
    },
  };
}
