// The Translation Service (spec: port 8087, POST /api/v1/translate, GET /api/v1/device-info): a thin
// route around the in-process translator, so HTTP and in-process callers run the same code.
import { buildDetectorService, DEVICE_INFO_PATH, envEnum, envString, parseEnv, type DetectorServiceOptions, type EnvValues, type Service } from '@palisade/core';
import { TRANSLATION_DEVICES } from './device.js';
import { TRANSLATION_LIMITS } from './limits.js';
import { createTranslator, type Translator } from './translator.js';
import type { TranslateRequest } from './schemas.js';

export const TRANSLATE_PATH = '/api/v1/translate';
export const TRANSLATION_DEVICE_INFO_PATH = DEVICE_INFO_PATH;

export const TRANSLATION_ENV = {
  /** A Marian ONNX export, or a directory of them; unset: translate answers 503. */
  TRANSLATION_MODEL_DIR: envString(),
  /** `cuda` for the GPU (spec: not `gpu`); falls back to the CPU with a warning when CUDA does not load. */
  TRANSLATION_SERVICE_MODEL_DEVICE: envEnum(TRANSLATION_DEVICES, 'cpu'),
} as const;
export type TranslationEnv = EnvValues<typeof TRANSLATION_ENV>;

export function loadTranslationEnv(env: NodeJS.ProcessEnv = process.env): TranslationEnv {
  return parseEnv(TRANSLATION_ENV, env);
}

export interface TranslationServiceOptions extends DetectorServiceOptions {
  /** Default: createTranslator() from `env`. Pass one to share it with in-process callers. */
  translator?: Translator;
  env?: TranslationEnv;
}

/**
 * POST /api/v1/translate → 200 {translation, source_lang, target_lang, model, latency_ms}; 400 for a
 * malformed body or a language pair no model serves; 503 SERVICE_UNAVAILABLE without a model.
 * GET /api/v1/device-info → the acceptance fields. /health/ready waits for the model when one is set.
 */
export function buildTranslationService(options: TranslationServiceOptions = {}): Service {
  const env = options.env ?? loadTranslationEnv({});
  const service = buildDetectorService(
    {
      name: 'translation',
      path: TRANSLATE_PATH,
      bodyLimit: TRANSLATION_LIMITS.bodyLimitBytes,
      readiness: options.translator || env.TRANSLATION_MODEL_DIR ? { model: () => translator.ready() } : {},
      closers: [() => translator.close()],
      // A caller that stops waiting (its detector timeout) stops the decoding loop too.
      handle: (body, call) => translator.detect(body as TranslateRequest, { traceId: call.traceId, signal: call.signal }),
      deviceInfo: () => translator.deviceInfo(),
    },
    options,
  );
  const translator =
    options.translator ??
    createTranslator({
      modelDir: env.TRANSLATION_MODEL_DIR,
      device: env.TRANSLATION_SERVICE_MODEL_DEVICE,
      logger: service.app.log,
    });
  return service;
}
