// The Translation Service (spec: port 8087, POST /api/v1/translate, GET /api/v1/device-info): a thin
// route around the in-process translator, so HTTP and in-process callers run the same code.
import { createService, envEnum, envString, parseEnv, type EnvValues, type Service, type ServiceOptions } from '@palisade/core';
import { TRANSLATION_DEVICES } from './device.js';
import { TRANSLATION_LIMITS } from './limits.js';
import { createTranslator, type Translator } from './translator.js';
import type { TranslateRequest } from './schemas.js';

export const TRANSLATE_PATH = '/api/v1/translate';
export const TRANSLATION_DEVICE_INFO_PATH = '/api/v1/device-info';

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

export interface TranslationServiceOptions {
  /** Default: createTranslator() from `env`. Pass one to share it with in-process callers. */
  translator?: Translator;
  env?: TranslationEnv;
  logger?: ServiceOptions['logger'];
  logLevel?: string;
  /** When set, every route but health and metrics needs it in X-Internal-Token (DECISIONS.md). */
  internalToken?: string | undefined;
}

/**
 * POST /api/v1/translate → 200 {translation, source_lang, target_lang, model, latency_ms}; 400 for a
 * malformed body or a language pair no model serves; 503 SERVICE_UNAVAILABLE without a model.
 * GET /api/v1/device-info → the acceptance fields. /health/ready waits for the model when one is set.
 */
export function buildTranslationService(options: TranslationServiceOptions = {}): Service {
  const env = options.env ?? loadTranslationEnv({});
  const service = createService({
    name: 'translation',
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.logLevel ? { logLevel: options.logLevel } : {}),
    internalToken: options.internalToken,
    bodyLimit: TRANSLATION_LIMITS.bodyLimitBytes,
    readiness: options.translator || env.TRANSLATION_MODEL_DIR ? { model: () => translator.ready() } : {},
    closers: [() => translator.close()],
  });
  const translator =
    options.translator ??
    createTranslator({
      modelDir: env.TRANSLATION_MODEL_DIR,
      device: env.TRANSLATION_SERVICE_MODEL_DEVICE,
      logger: service.app.log,
    });
  service.app.post(TRANSLATE_PATH, async (request, reply) => {
    // A caller that stops waiting (its detector timeout) stops the decoding loop too.
    const aborted = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableEnded) aborted.abort(new Error('the caller went away'));
    });
    return translator.detect(request.body as TranslateRequest, { traceId: String(request.id), signal: aborted.signal });
  });
  service.app.get(TRANSLATION_DEVICE_INFO_PATH, async () => translator.deviceInfo());
  return service;
}
