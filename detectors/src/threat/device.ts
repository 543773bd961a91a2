// THREAT_DETECTOR_ML_DEVICE (spec "Limits": `cuda`, not `gpu`, selects the GPU). `cuda` uses
// onnxruntime's CUDA execution provider when its libraries are installed beside onnxruntime-node
// (`npm install onnxruntime-node --onnxruntime-node-install=cuda12`) and the session starts on it;
// otherwise the detector runs on the CPU after one warning line.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { envEnum, envInt, envString, parseEnv } from '@palisade/core';
import { threatWorkerCount } from './limits.js';

export const THREAT_DEVICES = ['cpu', 'cuda'] as const;
export type ThreatDevice = (typeof THREAT_DEVICES)[number];

export const THREAT_DETECTOR_ENV = {
  THREAT_DETECTOR_ML_DEVICE: envEnum(THREAT_DEVICES, 'cpu'),
  /** Another model file (its .json metadata beside it); default: the committed model. */
  THREAT_DETECTOR_MODEL_PATH: envString(),
  /** Worker threads that score prompts (worker-pool.ts); default: one per core, 1 to 4. */
  THREAT_DETECTOR_WORKERS: envInt(1, 64, threatWorkerCount()),
};

export interface ThreatDetectorEnvConfig {
  device: ThreatDevice;
  modelPath: string | undefined;
  workers: number;
}

/** Reads the detector's variables; a bad value (e.g. `gpu`) throws core's ConfigError naming it. */
export function threatDetectorConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ThreatDetectorEnvConfig {
  const values = parseEnv(THREAT_DETECTOR_ENV, env);
  return { device: values.THREAT_DETECTOR_ML_DEVICE, modelPath: values.THREAT_DETECTOR_MODEL_PATH, workers: values.THREAT_DETECTOR_WORKERS };
}

/** Where onnxruntime-node looks for its CUDA provider library on this platform. */
export function threatCudaProviderPath(): string {
  const entry = createRequire(import.meta.url).resolve('onnxruntime-node');
  const root = dirname(dirname(entry));
  const file = process.platform === 'win32' ? 'onnxruntime_providers_cuda.dll' : 'libonnxruntime_providers_cuda.so';
  return join(root, 'bin', 'napi-v6', process.platform, process.arch, file);
}

export interface ThreatLogger {
  warn(message: string): void;
}

export interface ThreatSessionOptions {
  device: ThreatDevice;
  /** Threads inside one run; 1 lets concurrent runs use the cores instead (the service's case). */
  intraOpThreads: number;
  logger: ThreatLogger;
  /** Test seam: whether the CUDA provider library is present. */
  cudaInstalled?: () => boolean;
}

export interface ThreatSession {
  session: ort.InferenceSession;
  /** The device actually in use. */
  device: ThreatDevice;
  requestedDevice: ThreatDevice;
  executionProviders: string[];
}

function sessionOptions(providers: string[], intraOpThreads: number): ort.InferenceSession.SessionOptions {
  return {
    executionProviders: providers,
    intraOpNumThreads: intraOpThreads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    // onnxruntime's own warnings would repeat what the one fallback line says.
    logSeverityLevel: 3,
  };
}

/** An onnxruntime session on the requested device, or on the CPU with one warning when CUDA cannot be used. */
export async function createThreatSession(model: Uint8Array, options: ThreatSessionOptions): Promise<ThreatSession> {
  const cpu = async (): Promise<ThreatSession> => ({
    session: await ort.InferenceSession.create(model, sessionOptions(['cpu'], options.intraOpThreads)),
    device: 'cpu',
    requestedDevice: options.device,
    executionProviders: ['cpu'],
  });
  if (options.device === 'cpu') return cpu();
  const installed = options.cudaInstalled ?? (() => existsSync(threatCudaProviderPath()) && existsSync(threatCudaProviderPath().replace('providers_cuda', 'providers_shared')));
  if (!installed()) {
    options.logger.warn(`THREAT_DETECTOR_ML_DEVICE=cuda but onnxruntime's CUDA provider is not installed (${threatCudaProviderPath()}); using the CPU`);
    return cpu();
  }
  try {
    // CPU listed second takes the nodes CUDA does not implement.
    const session = await ort.InferenceSession.create(model, sessionOptions(['cuda', 'cpu'], options.intraOpThreads));
    return { session, device: 'cuda', requestedDevice: 'cuda', executionProviders: ['cuda', 'cpu'] };
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    options.logger.warn(`THREAT_DETECTOR_ML_DEVICE=cuda but the CUDA provider did not start (${reason}); using the CPU`);
    return cpu();
  }
}
