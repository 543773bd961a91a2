// The threat detector off the event loop: N worker threads (../workers/pool.ts), each with its own
// in-thread detector (detector.ts) and onnxruntime session, behind the same ThreatDetector contract.
// The calling thread only validates the request and posts the prompt, so a gateway or service under
// load keeps its event loop for I/O while features and inference run on other cores. An aborted call
// answers at once and tells its worker to stop the prompt between onnxruntime chunks.
import type { DetectorCallOptions } from '../contract.js';
import { createWorkerPool, type WorkerPoolStats } from '../workers/pool.js';
import { threatAbortError, threatDetectOver, type ThreatDetector, type ThreatScoreResult } from './detector.js';
import type { ThreatDevice, ThreatLogger } from './device.js';
import { THREAT_LIMITS, threatWorkerCount } from './limits.js';
import type { ThreatWorkerInit, ThreatWorkerReady } from './worker-protocol.js';

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
  stats(): WorkerPoolStats;
}

/** Compiled, the worker is worker-main.js; run from source (tests), worker-main.ts with the same loader. */
function defaultWorkerScript(): URL {
  const extension = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
  return new URL(`./worker-main.${extension}`, import.meta.url);
}

export async function createThreatWorkerPool(options: ThreatWorkerPoolOptions = {}): Promise<ThreatWorkerPool> {
  const logger = options.logger ?? { warn: (message: string) => process.stderr.write(`${message}\n`) };
  const pool = await createWorkerPool<ThreatWorkerInit, string, ThreatScoreResult, ThreatWorkerReady>({
    name: 'threat',
    workers: options.workers ?? threatWorkerCount(),
    script: options.workerScript ?? defaultWorkerScript(),
    init: { modelPath: options.modelPath, device: options.device ?? 'cpu', intraOpThreads: options.intraOpThreads ?? 1 },
    ...(options.niceness === undefined ? {} : { niceness: options.niceness }),
    warn: (message) => logger.warn(message),
    abortError: threatAbortError,
  });
  const { metadata, device, deviceInfo } = pool.ready;
  const score = (prompt: string, call: Pick<DetectorCallOptions, 'signal'> = {}): Promise<ThreatScoreResult> => pool.run(prompt, call.signal);
  return {
    kind: 'threat',
    modelVersion: metadata.version,
    metadata,
    device,
    deviceInfo: () => deviceInfo,
    score,
    detect: threatDetectOver(score, metadata.version, options.threshold ?? THREAT_LIMITS.defaultThreshold),
    stats: () => pool.stats(),
    close: () => pool.close(),
  };
}
