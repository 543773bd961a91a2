// The translation detector (DECISIONS.md, "Translation and content safety"): a Marian-style
// encoder-decoder ONNX model from TRANSLATION_MODEL_DIR run with onnxruntime-node, on CUDA when
// TRANSLATION_SERVICE_MODEL_DEVICE=cuda and the CUDA provider loads, else on the CPU with one warning.
// Without a model directory every translate call is a 503 (SERVICE_UNAVAILABLE), which the gateway
// skips; device-info still answers.
import { performance } from 'node:perf_hooks';
import { PalisadeError } from '@palisade/core';
import type { Detector, DetectorCallOptions } from '../contract.js';
import { greedyDecode } from './decode.js';
import { probeCuda, type CudaProbe, type TranslationDevice } from './device.js';
import { TRANSLATION_LIMITS } from './limits.js';
import { loadModels, pickModel, releaseModel, type Loaded } from './models.js';
import { TranslateRequestSchema, type TranslateRequest, type TranslateResponse, type TranslationDeviceInfo } from './schemas.js';

export interface TranslatorLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface TranslatorOptions {
  /** TRANSLATION_MODEL_DIR: one Marian export, or a directory of them (one per language pair). */
  modelDir?: string | undefined;
  /** TRANSLATION_SERVICE_MODEL_DEVICE; default cpu. */
  device?: TranslationDevice;
  logger?: TranslatorLogger;
  /** Default: the NVIDIA driver's GPU list (device.ts). */
  probe?: () => Promise<CudaProbe>;
  /** onnxruntime intra-op threads per session; default onnxruntime's own choice. */
  intraOpNumThreads?: number;
  /** Source tokens per model call (default TRANSLATION_LIMITS.maxInputTokens). */
  maxInputTokens?: number;
}

export interface Translator extends Detector<TranslateRequest, TranslateResponse> {
  /** Resolves once the model(s) are loaded (at once without a directory); rejects when loading failed. */
  ready(): Promise<void>;
  deviceInfo(): Promise<TranslationDeviceInfo>;
  close(): Promise<void>;
}

/** Sentence-ish pieces: after . ! ? … and their CJK forms, and at line breaks. */
const SENTENCE_END = /(?<=[.!?…。！？])\s+|\n+/u;

/** Source id chunks of at most `budget` ids each, every one ending with </s>. */
export function chunkSourceIds(text: string, encode: (text: string) => number[], eos: number, budget: number): number[][] {
  const whole = encode(text);
  if (whole.length <= budget) return [whole];
  const chunks: number[][] = [];
  let current: number[] = [];
  const push = () => {
    if (current.length > 0) chunks.push([...current, eos]);
    current = [];
  };
  for (const sentence of text.split(SENTENCE_END)) {
    if (sentence.trim() === '') continue;
    const ids = encode(sentence).slice(0, -1);
    if (current.length + ids.length > budget - 1) push();
    for (let i = 0; i < ids.length; i += budget - 1) {
      const part = ids.slice(i, i + budget - 1);
      if (current.length + part.length > budget - 1) push();
      current.push(...part);
    }
  }
  push();
  return chunks;
}

export function createTranslator(options: TranslatorOptions = {}): Translator {
  const requested = options.device ?? 'cpu';
  const probe = options.probe ?? (() => probeCuda());
  const budget = Math.max(2, options.maxInputTokens ?? TRANSLATION_LIMITS.maxInputTokens);
  let loading: Promise<Loaded> | undefined;

  function loaded(): Promise<Loaded> {
    if (!options.modelDir) {
      return Promise.reject(new PalisadeError('SERVICE_UNAVAILABLE', { message: 'No translation model: TRANSLATION_MODEL_DIR is not set' }));
    }
    loading ??= loadModels(options.modelDir, { requested, intraOpNumThreads: options.intraOpNumThreads, logger: options.logger }).catch((error: unknown) => {
      options.logger?.warn({ err: error }, 'translation model failed to load');
      throw new PalisadeError('SERVICE_UNAVAILABLE', {
        message: `The translation model could not be loaded: ${error instanceof Error ? error.message : String(error)}`,
        cause: error,
      });
    });
    return loading;
  }

  return {
    kind: 'translation',
    async detect(raw: TranslateRequest, call: DetectorCallOptions = {}): Promise<TranslateResponse> {
      const started = performance.now();
      const request = TranslateRequestSchema.parse(raw);
      const { models } = await loaded();
      if (request.source_lang === request.target_lang) {
        return { translation: request.text, source_lang: request.source_lang, target_lang: request.target_lang, model: 'none', latency_ms: performance.now() - started };
      }
      const model = pickModel(models, request.source_lang, request.target_lang);
      const { tokenizer, generation } = model.files;
      const parts: string[] = [];
      for (const source of chunkSourceIds(request.text, (t) => tokenizer.encode(t), tokenizer.special.eos, budget)) {
        const maxNewTokens = Math.min(generation.maxLength, TRANSLATION_LIMITS.maxOutputTokens, 2 * source.length + 16);
        const ids = await greedyDecode(model.sessions, source, generation, { maxNewTokens, signal: call.signal });
        const text = tokenizer.decode(ids);
        if (text) parts.push(text);
      }
      return {
        translation: parts.join(' '),
        source_lang: request.source_lang,
        target_lang: request.target_lang,
        model: model.files.name,
        latency_ms: Math.round((performance.now() - started) * 100) / 100,
      };
    },
    async ready() {
      if (options.modelDir) await loaded();
    },
    async deviceInfo(): Promise<TranslationDeviceInfo> {
      const cuda = await probe();
      const base = {
        status: 'ok' as const,
        backend: 'onnxruntime-node' as const,
        cuda_available: cuda.available,
        cuda_device_count: cuda.deviceCount,
        cuda_device_name: cuda.deviceName,
      };
      if (!options.modelDir) {
        return { ...base, device: 'cpu', compute_type: 'none', model_loaded: false, language_pairs: [], warning: 'TRANSLATION_MODEL_DIR is not set: translate answers 503' };
      }
      try {
        const state = await loaded();
        return {
          ...base,
          device: state.device,
          compute_type: state.computeType,
          model_loaded: true,
          language_pairs: state.models.map((m) => `${m.files.sourceLang}-${m.files.targetLang}`),
          ...(state.warning ? { warning: state.warning } : {}),
        };
      } catch (error) {
        return { ...base, device: 'cpu', compute_type: 'none', model_loaded: false, language_pairs: [], warning: error instanceof Error ? error.message : String(error) };
      }
    },
    async close() {
      const state = await loading?.catch(() => undefined);
      loading = undefined;
      if (state) for (const m of state.models) await releaseModel(m);
    },
  };
}
