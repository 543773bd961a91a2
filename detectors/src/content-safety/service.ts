// The Content Safety service (spec: port 8088, POST /api/v1/analyze; ours: GET /api/v1/device-info):
// a thin route around the in-process analyzer, so HTTP and in-process callers run the same code.
import { buildDetectorService, DEVICE_INFO_PATH, envInt, envSecret, envString, envUrl, parseEnv, type DetectorServiceOptions, type EnvValues, type Service } from '@palisade/core';
import { createContentSafetyAnalyzer, type ContentSafetyAnalyzer } from './analyzer.js';
import { CONTENT_SAFETY_DEFAULT_MODEL, CONTENT_SAFETY_LIMITS } from './limits.js';
import type { AnalyzeRequest } from './schemas.js';

export const CONTENT_SAFETY_ANALYZE_PATH = '/api/v1/analyze';
export const CONTENT_SAFETY_DEVICE_INFO_PATH = DEVICE_INFO_PATH;

export const CONTENT_SAFETY_ENV = {
  /** The OpenAI-compatible server of the guard model (on a GPU); unset: analyze answers 503. */
  CONTENT_SAFETY_MODEL_URL: envUrl(['http', 'https']),
  /** The model id the server serves it under. */
  CONTENT_SAFETY_MODEL_NAME: envString(CONTENT_SAFETY_DEFAULT_MODEL),
  /** Bearer key of the model server, when it wants one. */
  CONTENT_SAFETY_API_KEY: envSecret(),
  /** One model call; a slower one is a 503. */
  CONTENT_SAFETY_TIMEOUT_MS: envInt(100, 600_000, CONTENT_SAFETY_LIMITS.defaultTimeoutMs),
} as const;
export type ContentSafetyEnv = EnvValues<typeof CONTENT_SAFETY_ENV>;

export function loadContentSafetyEnv(env: NodeJS.ProcessEnv = process.env): ContentSafetyEnv {
  return parseEnv(CONTENT_SAFETY_ENV, env);
}

export interface ContentSafetyServiceOptions extends DetectorServiceOptions {
  /** Default: createContentSafetyAnalyzer() from `env`. Pass one to share it with in-process callers. */
  analyzer?: ContentSafetyAnalyzer;
  env?: ContentSafetyEnv;
}

/**
 * POST /api/v1/analyze → 200 {verdict, score, categories, blocked, blocked_categories, …}; 400 for a
 * malformed body; 503 SERVICE_UNAVAILABLE without a model server or when it is down or too slow;
 * 500 when the model answers something that is not a guard verdict.
 * GET /api/v1/device-info → whether a model server is configured and reachable.
 * /health/ready asks the model server when a URL is set (without one the service is ready to say 503).
 */
export function buildContentSafetyService(options: ContentSafetyServiceOptions = {}): Service {
  const env = options.env ?? loadContentSafetyEnv({});
  const service = buildDetectorService(
    {
      name: 'content-safety',
      path: CONTENT_SAFETY_ANALYZE_PATH,
      bodyLimit: CONTENT_SAFETY_LIMITS.bodyLimitBytes,
      readiness: options.analyzer || env.CONTENT_SAFETY_MODEL_URL ? { model_server: () => analyzer.ready() } : {},
      closers: [() => analyzer.close()],
      // A caller that stops waiting (its detector timeout) stops the model call too.
      handle: (body, call) => analyzer.detect(body as AnalyzeRequest, { traceId: call.traceId, signal: call.signal }),
      deviceInfo: () => analyzer.deviceInfo(),
    },
    options,
  );
  const analyzer =
    options.analyzer ??
    createContentSafetyAnalyzer({
      modelUrl: env.CONTENT_SAFETY_MODEL_URL,
      modelName: env.CONTENT_SAFETY_MODEL_NAME,
      apiKey: env.CONTENT_SAFETY_API_KEY,
      timeoutMs: env.CONTENT_SAFETY_TIMEOUT_MS,
      logger: service.app.log,
    });
  return service;
}
