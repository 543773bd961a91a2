// The call to the guard model: an OpenAI-compatible chat completion (vLLM, SGLang, TGI… serving a
// Qwen3Guard-Gen-class model; the server applies the model's chat template). Built on an undici Pool
// like http-client.ts, which it cannot reuse as is: the model server wants a bearer key rather than
// the internal token, answers in the OpenAI error shape, and its 5xx mean "no model now" (503 here).
import { Pool } from 'undici';
import { z } from 'zod';
import { PalisadeError, readLimited } from '@palisade/core';
import type { DetectorCallOptions } from '../contract.js';
import { CONTENT_SAFETY_LIMITS } from './limits.js';

export interface GuardMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface GuardClientOptions {
  /** CONTENT_SAFETY_MODEL_URL, e.g. http://guard:8000 (a path prefix is kept; a trailing /v1 is not doubled). */
  url: string;
  /** The model id sent in each request. */
  model: string;
  /** Sent as `Authorization: Bearer …` when set. */
  apiKey?: string | undefined;
  /** The whole call: connect, send, answer. */
  timeoutMs: number;
  maxTokens?: number;
  /** Keep-alive connections to the model server; default 32. */
  connections?: number;
}

export interface GuardCompletion {
  /** The generated text. */
  text: string;
  /** The model the server says answered. */
  model: string;
}

export interface GuardClient {
  /** The model server's address without credentials or query. */
  readonly server: string;
  complete(messages: GuardMessage[], options?: DetectorCallOptions): Promise<GuardCompletion>;
  /** GET /v1/models: the ids the server serves. */
  listModels(options?: DetectorCallOptions): Promise<string[]>;
  close(): Promise<void>;
}

const ChatCompletion = z.object({
  model: z.string().optional(),
  choices: z
    .array(z.object({ message: z.object({ content: z.string().nullable().optional() }) }))
    .min(1),
});
const ModelList = z.object({ data: z.array(z.object({ id: z.string() })) });

/** undici's own timers only back up ours, which always fire first. */
const UNDICI_BACKSTOP_MS = 1_000;

/** The path prefix of a base URL, without a trailing slash or a trailing /v1 (OpenAI clients' habit). */
export function guardBasePath(url: URL): string {
  return url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
}

const unavailable = (message: string, cause?: unknown) => new PalisadeError('SERVICE_UNAVAILABLE', { message, ...(cause === undefined ? {} : { cause }) });

/** The `error.message` of an OpenAI-style error body ({error:{message}}, or vLLM's older {message}). */
function serverMessage(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof body.error === 'object' && typeof body.error?.message === 'string') return body.error.message;
    if (typeof body.error === 'string') return body.error;
    if (typeof body.message === 'string') return body.message;
  } catch {
    // Not JSON: the status says enough.
  }
  return undefined;
}

export function createGuardClient(options: GuardClientOptions): GuardClient {
  const { timeoutMs } = options;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new RangeError(`invalid content safety timeoutMs: ${String(timeoutMs)}`);
  const base = new URL(options.url);
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new RangeError(`CONTENT_SAFETY_MODEL_URL must be http or https, not ${base.protocol}`);
  const prefix = guardBasePath(base);
  const server = `${base.origin}${prefix}`;
  const pool = new Pool(base.origin, {
    connections: options.connections ?? 32,
    pipelining: 1,
    keepAliveTimeout: 10_000,
    headersTimeout: timeoutMs + UNDICI_BACKSTOP_MS,
    bodyTimeout: timeoutMs + UNDICI_BACKSTOP_MS,
  });
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  const name = `content safety model server (${server})`;

  async function send(method: 'GET' | 'POST', path: string, body: unknown, call: DetectorCallOptions): Promise<unknown> {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
    const sent = call.traceId ? { ...headers, 'x-request-id': call.traceId } : headers;
    let status: number;
    let bytes: Buffer | undefined;
    try {
      const res = await pool.request({ path: `${prefix}${path}`, method, headers: sent, signal, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      status = res.statusCode;
      bytes = await readLimited(res.body, CONTENT_SAFETY_LIMITS.maxAnswerBytes);
    } catch (error) {
      const why = timeout.aborted ? `no answer within ${timeoutMs} ms` : call.signal?.aborted ? 'the caller stopped waiting' : error instanceof Error ? error.message : String(error);
      throw unavailable(`${name}: ${why}`, error);
    }
    if (!bytes) throw new PalisadeError('INTERNAL_ERROR', { message: `${name} answered ${method} ${path} with more than ${CONTENT_SAFETY_LIMITS.maxAnswerBytes} bytes` });
    const text = bytes.toString('utf8');
    if (status === 200) {
      try {
        return JSON.parse(text) as unknown;
      } catch (error) {
        throw new PalisadeError('INTERNAL_ERROR', { message: `${name} answered ${method} ${path} with a body that is not JSON`, cause: error });
      }
    }
    const message = `${name} answered ${method} ${path} with ${status}${serverMessage(text) ? `: ${serverMessage(text)}` : ''}`;
    // 5xx and 429: the model is not there or overloaded now, the same as no GPU (the gateway skips).
    if (status >= 500 || status === 429) throw unavailable(message);
    // 4xx: our request or configuration is wrong (unknown model name, bad key, text too long for the context).
    throw new PalisadeError('INTERNAL_ERROR', { message });
  }

  return {
    server,
    async complete(messages, call = {}) {
      const answer = await send(
        'POST',
        '/v1/chat/completions',
        { model: options.model, messages, temperature: 0, max_tokens: options.maxTokens ?? CONTENT_SAFETY_LIMITS.maxOutputTokens, stream: false },
        call,
      );
      const parsed = ChatCompletion.safeParse(answer);
      if (!parsed.success) throw new PalisadeError('INTERNAL_ERROR', { message: `${name} answered with something that is not a chat completion`, cause: parsed.error });
      const content = parsed.data.choices[0]!.message.content;
      if (typeof content !== 'string') throw new PalisadeError('INTERNAL_ERROR', { message: `${name} answered a chat completion without message content` });
      return { text: content, model: parsed.data.model ?? options.model };
    },
    async listModels(call = {}) {
      const parsed = ModelList.safeParse(await send('GET', '/v1/models', undefined, call));
      if (!parsed.success) throw new PalisadeError('INTERNAL_ERROR', { message: `${name} answered GET /v1/models with something that is not a model list`, cause: parsed.error });
      return parsed.data.data.map((m) => m.id);
    },
    close: () => pool.close(),
  };
}
