// The messages between the threat worker pool (main thread) and its workers (worker-main.ts).
import type { ThreatDevice } from './device.js';
import type { ThreatDeviceInfo, ThreatScoreResult } from './detector.js';
import type { ThreatModelMetadata } from './model-files.js';

/** What a worker is started with (workerData). */
export interface ThreatWorkerInit {
  modelPath: string | undefined;
  device: ThreatDevice;
  intraOpThreads: number;
  /** Added to the worker thread's nice value (Linux): the event loop goes first on a busy machine. */
  niceness: number;
}

export type ThreatWorkerRequest = { type: 'score'; id: number; prompt: string } | { type: 'cancel'; id: number };

/** A failure as it crosses the thread boundary: the catalogue code when it was a PalisadeError. */
export interface ThreatWorkerFailure {
  code?: string;
  message: string;
  name?: string;
}

export type ThreatWorkerReply =
  | { type: 'ready'; metadata: ThreatModelMetadata; device: ThreatDevice; deviceInfo: ThreatDeviceInfo }
  | { type: 'start-failed'; error: ThreatWorkerFailure }
  | { type: 'warn'; message: string }
  | { type: 'result'; id: number; result: ThreatScoreResult }
  | { type: 'error'; id: number; error: ThreatWorkerFailure };
