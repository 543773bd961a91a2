// The content safety detector (DECISIONS.md, "Translation and content safety"): asks a Qwen3Guard-Gen-
// class guard model, served on a GPU by an OpenAI-compatible server at CONTENT_SAFETY_MODEL_URL, and
// turns its verdict and categories into the spec's 9 categories. Without a URL, or with the server
// down, every call is a 503 (SERVICE_UNAVAILABLE), which the gateway skips.
import { performance } from 'node:perf_hooks';
import { CONTENT_SAFETY_CATEGORIES, PalisadeError, VERDICT_SCORE, toPalisadeError, type ContentSafetyCategory } from '@palisade/core';
import type { Detector, DetectorCallOptions } from '../contract.js';
import { createGuardClient, type GuardClient, type GuardMessage } from './guard-client.js';
import { GuardOutputError, parseGuardOutput, type GuardOutput } from './guard-output.js';
import { CONTENT_SAFETY_DEFAULT_MODEL, CONTENT_SAFETY_LIMITS } from './limits.js';
import { AnalyzeRequestSchema, type AnalyzeRequest, type AnalyzeResponse, type ContentSafetyDeviceInfo, type ParsedAnalyzeRequest } from './schemas.js';

export interface ContentSafetyLogger {
  warn(obj: object, msg: string): void;
}

export interface ContentSafetyAnalyzerOptions {
  /** CONTENT_SAFETY_MODEL_URL; unset: analyze answers 503. */
  modelUrl?: string | undefined;
  /** CONTENT_SAFETY_MODEL_NAME; default Qwen/Qwen3Guard-Gen-4B. */
  modelName?: string | undefined;
  /** CONTENT_SAFETY_API_KEY: the model server's bearer key. */
  apiKey?: string | undefined;
  /** CONTENT_SAFETY_TIMEOUT_MS: one model call. */
  timeoutMs?: number | undefined;
  logger?: ContentSafetyLogger;
}

export interface ContentSafetyAnalyzer extends Detector<AnalyzeRequest, AnalyzeResponse> {
  /** Resolves when the model server answers GET /v1/models (at once without a URL). */
  ready(): Promise<void>;
  deviceInfo(): Promise<ContentSafetyDeviceInfo>;
  close(): Promise<void>;
}

/** The chat the guard judges: the prompt alone, or the prompt and the answer (Qwen3Guard's two modes). */
export function guardMessages(request: ParsedAnalyzeRequest): GuardMessage[] {
  if (request.role === 'prompt') return [{ role: 'user', content: request.text }];
  // Without the prompt the answer is judged on its own; the template still wants a user turn first.
  return [
    { role: 'user', content: request.prompt ?? '' },
    { role: 'assistant', content: request.text },
  ];
}

/** The answer for a parsed guard output: each named category gets the overall level, the others Safe. */
export function toAnalyzeResponse(request: ParsedAnalyzeRequest, output: GuardOutput, model: string, latencyMs: number): AnalyzeResponse {
  const named = new Set<ContentSafetyCategory>(output.categories);
  const categories = CONTENT_SAFETY_CATEGORIES.map((category) => {
    const verdict = named.has(category) ? output.safety : 'Safe';
    return { category, verdict, score: VERDICT_SCORE[verdict] };
  });
  const unsafe = new Set(categories.filter((c) => c.verdict === 'Unsafe').map((c) => c.category));
  const hit = [...new Set(request.blocked_categories)].filter((c) => unsafe.has(c));
  return {
    verdict: output.safety,
    score: VERDICT_SCORE[output.safety],
    categories,
    blocked: hit.length > 0,
    blocked_categories: hit,
    unmapped_categories: output.unmapped,
    role: request.role,
    refusal: request.role === 'response' ? output.refusal : null,
    model,
    latency_ms: Math.round(latencyMs * 100) / 100,
  };
}

export function createContentSafetyAnalyzer(options: ContentSafetyAnalyzerOptions = {}): ContentSafetyAnalyzer {
  const modelName = options.modelName ?? CONTENT_SAFETY_DEFAULT_MODEL;
  const client: GuardClient | undefined = options.modelUrl
    ? createGuardClient({
        url: options.modelUrl,
        model: modelName,
        apiKey: options.apiKey,
        timeoutMs: options.timeoutMs ?? CONTENT_SAFETY_LIMITS.defaultTimeoutMs,
      })
    : undefined;
  const noUrl = 'No content safety model: CONTENT_SAFETY_MODEL_URL is not set (the guard model is served on a GPU by an OpenAI-compatible server)';

  return {
    kind: 'content-safety',
    async detect(raw: AnalyzeRequest, call: DetectorCallOptions = {}): Promise<AnalyzeResponse> {
      const started = performance.now();
      const parsed = AnalyzeRequestSchema.safeParse(raw);
      if (!parsed.success) throw toPalisadeError(parsed.error);
      if (!client) throw new PalisadeError('SERVICE_UNAVAILABLE', { message: noUrl });
      const request = parsed.data;
      const completion = await client.complete(guardMessages(request), call);
      let output: GuardOutput;
      try {
        output = parseGuardOutput(completion.text);
      } catch (error) {
        if (!(error instanceof GuardOutputError)) throw error;
        throw new PalisadeError('INTERNAL_ERROR', { message: `Content safety: ${error.message}`, cause: error });
      }
      if (output.unmapped.length > 0) options.logger?.warn({ unmapped: output.unmapped, model: completion.model }, 'the guard model named categories outside the 9 of the spec');
      return toAnalyzeResponse(request, output, completion.model, performance.now() - started);
    },
    async ready() {
      await client?.listModels();
    },
    async deviceInfo(): Promise<ContentSafetyDeviceInfo> {
      const base = { status: 'ok' as const, backend: 'openai-compatible' as const, model: modelName };
      if (!client) {
        return { ...base, model_url_configured: false, model_server: null, model_server_reachable: false, model_available: false, served_models: [], warning: `${noUrl}: analyze answers 503` };
      }
      const server = { model_url_configured: true, model_server: client.server };
      try {
        const served = await client.listModels();
        const available = served.includes(modelName);
        return {
          ...base,
          ...server,
          model_server_reachable: true,
          model_available: available,
          served_models: served,
          ...(available ? {} : { warning: `the model server does not list ${modelName} (it serves: ${served.join(', ') || 'nothing'}); set CONTENT_SAFETY_MODEL_NAME` }),
        };
      } catch (raw) {
        // A 4xx (a wrong key) still means the server is there; analyze then fails the same way.
        const error = toPalisadeError(raw);
        const down = error.code === 'SERVICE_UNAVAILABLE';
        const warning = down ? `${error.message}: analyze answers 503` : error.message;
        return { ...base, ...server, model_server_reachable: !down, model_available: false, served_models: [], warning };
      }
    },
    async close() {
      await client?.close();
    },
  };
}
