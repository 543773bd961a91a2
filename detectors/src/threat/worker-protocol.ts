// What the threat worker pool (main thread) and its workers (worker-main.ts) exchange, on top of the
// shared pool protocol (../workers/protocol.ts): the prompt goes in, a score comes back.
import type { ThreatDevice } from './device.js';
import type { ThreatDeviceInfo } from './detector.js';
import type { ThreatModelMetadata } from './model-files.js';

/** What a worker starts its in-thread detector with. */
export interface ThreatWorkerInit {
  modelPath: string | undefined;
  device: ThreatDevice;
  intraOpThreads: number;
}

/** What a worker answers once its model is loaded. */
export interface ThreatWorkerReady {
  metadata: ThreatModelMetadata;
  device: ThreatDevice;
  deviceInfo: ThreatDeviceInfo;
}
