// The built-in detector and the pretrained classifier of THREAT_MODEL_DIR behind one ThreatDetector:
// THREAT_ENSEMBLE picks the score — `max` (default: either model can flag a prompt, so the
// classifier adds recall where the built-in model is weak and the built-in model keeps its rule
// families), `mean`, `builtin` (the classifier is not loaded) or `external` (the built-in model
// is not consulted). `model_version` names the models whose scores count, e.g. `threat-v2+prompt-guard`.
import { envEnum, envString, parseEnv } from '@palisade/core';
import type { DetectorCallOptions } from '../../contract.js';
import { threatAbortError, threatDetectOver, type ThreatDetector, type ThreatScoreResult } from '../detector.js';
import type { ThreatDevice, ThreatLogger } from '../device.js';
import { THREAT_LIMITS } from '../limits.js';
import { createExternalClassifier, type ExternalClassifier, type ExternalClassifierOptions } from './classifier.js';

export const THREAT_ENSEMBLES = ['max', 'mean', 'builtin', 'external'] as const;
export type ThreatEnsemble = (typeof THREAT_ENSEMBLES)[number];

export const THREAT_EXTERNAL_ENV = {
  /** A Hugging Face-format ONNX sequence-classification directory (external/model-dir.ts). */
  THREAT_MODEL_DIR: envString(),
  THREAT_ENSEMBLE: envEnum(THREAT_ENSEMBLES, 'max'),
};

export function combineThreatScores(mode: ThreatEnsemble, builtin: number, external: number): number {
  if (mode === 'builtin') return builtin;
  if (mode === 'external') return external;
  return mode === 'mean' ? (builtin + external) / 2 : Math.max(builtin, external);
}

/** A detector that scores with both models (or one, by mode); closing it closes both. */
export function combineThreatDetectors(builtin: ThreatDetector, external: ExternalClassifier, mode: ThreatEnsemble, threshold?: number): ThreatDetector {
  const modelVersion = mode === 'external' ? external.name : `${builtin.modelVersion}+${external.name}`;
  const score = async (prompt: string, call: Pick<DetectorCallOptions, 'signal'> = {}): Promise<ThreatScoreResult> => {
    const empty: ThreatScoreResult = { score: 0, signals: [], windows: 0 };
    const [own, other] = await Promise.all([mode === 'external' ? empty : builtin.score(prompt, call), external.score(prompt, call.signal)]);
    if (call.signal?.aborted) throw threatAbortError(call.signal);
    return { score: combineThreatScores(mode, own.score, other.score), signals: own.signals, windows: own.windows + other.windows };
  };
  return {
    kind: 'threat',
    modelVersion,
    metadata: builtin.metadata,
    device: builtin.device,
    deviceInfo: () => ({
      ...builtin.deviceInfo(),
      model_version: modelVersion,
      external_model: { name: external.name, device: external.device, execution_providers: external.executionProviders, max_length: external.maxLength, labels: external.labels, ensemble: mode },
    }),
    score,
    detect: threatDetectOver(score, modelVersion, threshold ?? THREAT_LIMITS.defaultThreshold),
    async close() {
      await Promise.all([builtin.close(), external.close()]);
    },
  };
}

export interface ThreatModelDirOptions extends Omit<ExternalClassifierOptions, 'device' | 'logger'> {
  device: ThreatDevice;
  logger?: ThreatLogger;
  threshold?: number;
}

/**
 * The built-in detector as is when THREAT_MODEL_DIR is unset (or THREAT_ENSEMBLE=builtin), else
 * combined with the directory's classifier. A broken directory rejects with a ConfigError whose message
 * is one line naming the file; the built-in detector is closed then.
 */
export async function withThreatModelDir(builtin: ThreatDetector, env: NodeJS.ProcessEnv, options: ThreatModelDirOptions): Promise<ThreatDetector> {
  const { THREAT_MODEL_DIR: dir, THREAT_ENSEMBLE: mode } = parseEnv(THREAT_EXTERNAL_ENV, env);
  if (!dir || mode === 'builtin') return builtin;
  let external: ExternalClassifier;
  try {
    external = await createExternalClassifier(dir, options);
  } catch (error) {
    await builtin.close();
    throw error;
  }
  return combineThreatDetectors(builtin, external, mode, options.threshold);
}
