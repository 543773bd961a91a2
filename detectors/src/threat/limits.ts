// The threat detector's constants: its port (spec: Threat Detector, 8090), paths and input bounds.

import { availableParallelism } from 'node:os';
import { COMPONENT_PORTS } from '@palisade/core';

export const THREAT_DETECTOR_PORT = COMPONENT_PORTS.threat;
export const THREAT_DETECT_PATH = '/api/v1/detect';
export const THREAT_DEVICE_INFO_PATH = '/api/v1/device-info';

export const THREAT_LIMITS = {
  /** Longest user_prompt scored, in characters (a 128k-token context is roughly 500k characters). */
  maxPromptChars: 1_000_000,
  /** HTTP body limit: the longest prompt in UTF-8 Cyrillic with JSON escapes fits. */
  bodyLimitBytes: 8 * 1024 * 1024,
  /** Windows per onnxruntime run; a longer prompt runs in chunks and yields to the event loop between them. */
  windowsPerRun: 64,
  /** Decision threshold when neither the request nor the detector options set one. */
  defaultThreshold: 0.5,
} as const;

/**
 * Threat worker threads by default: one per core, at most four. The workers run at a lower priority
 * (worker-main.ts), so the event loop still gets a core when it needs one, and the workers fill what it
 * leaves: on 2 cores two workers served about 20 % more inspected calls than one, with the same
 * event-loop delay (bench, session of 2026-11-22).
 */
export function threatWorkerCount(cores = availableParallelism()): number {
  return Math.max(1, Math.min(4, cores));
}
