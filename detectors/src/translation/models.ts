// The translation models of TRANSLATION_MODEL_DIR as onnxruntime sessions: loaded on the requested
// device (CUDA falls back to the CPU with one warning), released, and picked by language pair.
import * as ort from 'onnxruntime-node';
import { PalisadeError } from '@palisade/core';
import { checkSessionInputs, type MarianSessions } from './decode.js';
import { executionProvidersFor, type TranslationDevice } from './device.js';
import { findMarianModelDirs, readMarianModelDir, type MarianModelDir } from './model-dir.js';
import type { TranslatorLogger } from './translator.js';

export interface LoadedModel {
  files: MarianModelDir;
  sessions: MarianSessions;
}

export interface Loaded {
  models: LoadedModel[];
  device: 'cpu' | 'cuda';
  computeType: string;
  warning?: string;
}

export interface LoadOptions {
  requested: TranslationDevice;
  intraOpNumThreads: number | undefined;
  logger: TranslatorLogger | undefined;
}

async function createSessions(files: MarianModelDir, providers: string[], threads: number | undefined): Promise<MarianSessions> {
  const options: ort.InferenceSession.SessionOptions = {
    executionProviders: providers as ort.InferenceSession.ExecutionProviderConfig[],
    graphOptimizationLevel: 'all',
    logSeverityLevel: 3,
    ...(threads ? { intraOpNumThreads: threads } : {}),
  };
  const encoder = await ort.InferenceSession.create(files.encoderPath, options);
  try {
    const decoder = await ort.InferenceSession.create(files.decoderPath, options);
    const sessions = { encoder, decoder };
    checkSessionInputs(sessions);
    return sessions;
  } catch (error) {
    await encoder.release();
    throw error;
  }
}

function logitsType(sessions: MarianSessions): string {
  const meta = sessions.decoder.outputMetadata.find((m) => m.name === 'logits');
  return meta && meta.isTensor ? meta.type : 'float32';
}

/** Every model of `modelDir` on the requested device; on the CPU, with one warning, when CUDA does not load. */
export async function loadModels(modelDir: string, options: LoadOptions): Promise<Loaded> {
  const dirs = await findMarianModelDirs(modelDir);
  const { requested } = options;
  const preferFp16 = requested === 'cuda';
  const models: LoadedModel[] = [];
  let device: 'cpu' | 'cuda' = requested;
  let warning: string | undefined;
  try {
    for (const dir of dirs) {
      const files = await readMarianModelDir(dir, { preferFp16 });
      let sessions: MarianSessions;
      try {
        sessions = await createSessions(files, executionProvidersFor(device).slice(0, device === 'cuda' ? 1 : undefined), options.intraOpNumThreads);
      } catch (error) {
        if (device !== 'cuda') throw error;
        // One warning, then every model on the CPU (fp16 exports are kept only for CUDA).
        device = 'cpu';
        warning = `TRANSLATION_SERVICE_MODEL_DEVICE=cuda but the CUDA execution provider did not load (${error instanceof Error ? error.message : String(error)}); running on the CPU`;
        options.logger?.warn({ model: files.name }, warning);
        for (const m of models.splice(0)) await releaseModel(m);
        return loadOnCpu(dirs, warning, options);
      }
      models.push({ files, sessions });
    }
  } catch (error) {
    for (const m of models) await releaseModel(m);
    throw error;
  }
  options.logger?.info({ models: models.map((m) => m.files.name), device }, 'translation models loaded');
  return { models, device, computeType: logitsType(models[0]!.sessions), ...(warning ? { warning } : {}) };
}

async function loadOnCpu(dirs: string[], warning: string, options: LoadOptions): Promise<Loaded> {
  const models: LoadedModel[] = [];
  try {
    for (const dir of dirs) {
      const files = await readMarianModelDir(dir, { preferFp16: false });
      models.push({ files, sessions: await createSessions(files, ['cpu'], options.intraOpNumThreads) });
    }
  } catch (error) {
    for (const m of models) await releaseModel(m);
    throw error;
  }
  return { models, device: 'cpu', computeType: logitsType(models[0]!.sessions), warning };
}

export async function releaseModel(model: LoadedModel): Promise<void> {
  await model.sessions.encoder.release();
  await model.sessions.decoder.release();
}


/** The model of a language pair (or a multilingual one into the target); VALIDATION_ERROR naming the field otherwise. */
export function pickModel(models: LoadedModel[], source: string, target: string): LoadedModel {
  const found =
    models.find((m) => m.files.sourceLang === source && m.files.targetLang === target) ??
    models.find((m) => m.files.sourceLang === 'mul' && m.files.targetLang === target);
  if (found) return found;
  const pairs = models.map((m) => `${m.files.sourceLang}-${m.files.targetLang}`).join(', ');
  throw new PalisadeError('VALIDATION_ERROR', {
    message: `No translation model for ${source}-${target} (served: ${pairs})`,
    details: [{ path: models.some((m) => m.files.targetLang === target) ? 'source_lang' : 'target_lang', message: `not served; pairs: ${pairs}` }],
  });
}
