/**
 * The gateway's client to LLM backends: one undici Agent (a keep-alive pool per upstream origin,
 * pipelining 1), upstream auth (auth.ts), one deadline over the whole exchange, and a buffered read
 * of the answer — a stream is read to its end marker and returned as one body (spec, "Gateway
 * pipeline": streaming is unsupported towards the client) with the answer text reassembled.
 *
 * Errors (spec, "Errors"): the deadline (request_timeout_ms, taken when the request started) passing
 * before the last body byte → LLM_TIMEOUT (504); no usable answer (refused, reset, closed, DNS, TLS,
 * token endpoint failure) → LLM_REQUEST_FAILED (502) naming the cause. Upstream 4xx/5xx are answers,
 * returned as they are.
 */
import { performance } from 'node:perf_hooks';
import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import { Agent, type Dispatcher } from 'undici';
import { PalisadeError } from '@palisade/core';
import { createUpstreamAuth, type AppliedAuth } from './auth.js';
import { forwardableRequestHeaders, forwardableResponseHeaders, headerValue, type HeaderMap } from './headers.js';
import { describeFailure, findErrorCode, isTimeoutError, safeOrigin } from './network-errors.js';
import { assembleJsonChunks, createStreamAssembler, streamFormatOf, type StreamAssembler } from './sse.js';
import type { UpstreamClient, UpstreamClientOptions, UpstreamRequest, UpstreamResponse } from './types.js';

export const UPSTREAM_DEFAULTS = {
  connections: 256,
  keepAliveTimeoutMs: 10_000,
  connectTimeoutMs: 10_000,
  maxResponseBytes: 64 * 1024 * 1024,
  streamEndGraceMs: 200,
} as const;

/** undici's own header/body timers only back up our deadline, which always fires first. */
const UNDICI_BACKSTOP_MS = 5_000;

class ResponseTooLargeError extends Error {
  readonly code = 'PALISADE_RESPONSE_TOO_LARGE';
  constructor(limit: number) {
    super(`the answer is larger than ${limit} bytes`);
    this.name = 'ResponseTooLargeError';
  }
}

/** The one timer of an exchange: aborts the undici request (freeing its socket) when it fires. */
class Deadline {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly caller: AbortSignal | undefined;
  private readonly onCallerAbort = (): void => this.abortByCaller(new Error('the request was aborted by the caller'));
  timedOut = false;
  callerAborted = false;

  constructor(readonly ms: number, caller: AbortSignal | undefined) {
    this.timer = setTimeout(() => {
      this.timedOut = true;
      const reason = new Error(`upstream deadline of ${ms} ms passed`);
      reason.name = 'TimeoutError';
      this.controller.abort(reason);
    }, ms);
    this.caller = caller;
    if (caller?.aborted) this.onCallerAbort();
    else caller?.addEventListener('abort', this.onCallerAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  abortByCaller(reason: Error): void {
    if (this.controller.signal.aborted) return;
    this.callerAborted = true;
    this.controller.abort(reason);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.caller?.removeEventListener('abort', this.onCallerAbort);
  }
}

type Exchange = Omit<UpstreamResponse, 'durationMs' | 'attempts'>;

const TEXTUAL = /^(text\/|application\/(json|x-ndjson|ndjson|jsonl|x-jsonlines|xml|x-www-form-urlencoded|javascript)\b)|[+/]json\b|\+xml\b/i;

function isTextual(contentType: string): boolean {
  return contentType.trim() === '' || TEXTUAL.test(contentType.trim());
}

/** A streaming decoder for a Content-Encoding; lenient about a truncated end, as browsers are. */
function decoderFor(encoding: string): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | undefined {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip({ finishFlush: zlib.constants.Z_SYNC_FLUSH });
    case 'deflate':
      return zlib.createInflate({ finishFlush: zlib.constants.Z_SYNC_FLUSH });
    case 'br':
      return zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
    default:
      return undefined;
  }
}

function withAuth(forwarded: HeaderMap, applied: AppliedAuth, hasBody: boolean): HeaderMap {
  const headers: HeaderMap = { ...forwarded };
  for (const name of applied.strip) delete headers[name];
  Object.assign(headers, applied.set);
  headers['accept-encoding'] = 'identity';
  if (hasBody && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
  return headers;
}

export function createUpstreamClient(options: UpstreamClientOptions): UpstreamClient {
  const logger = options.logger;
  const maxResponseBytes = options.maxResponseBytes ?? UPSTREAM_DEFAULTS.maxResponseBytes;
  const streamEndGraceMs = options.streamEndGraceMs ?? UPSTREAM_DEFAULTS.streamEndGraceMs;
  const agent = new Agent({
    connections: options.connections ?? UPSTREAM_DEFAULTS.connections,
    pipelining: 1,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? UPSTREAM_DEFAULTS.keepAliveTimeoutMs,
    connect: {
      timeout: options.connectTimeoutMs ?? UPSTREAM_DEFAULTS.connectTimeoutMs,
      ...(options.insecureSkipVerify ? { rejectUnauthorized: false } : {}),
    },
  });
  const auth = createUpstreamAuth({
    cache: options.cache,
    dispatcher: agent,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.tokenTimeoutMs !== undefined ? { tokenTimeoutMs: options.tokenTimeoutMs } : {}),
    ...(logger ? { logger } : {}),
  });
  let closed = false;

  async function exchange(url: URL, request: UpstreamRequest, headers: HeaderMap, deadline: Deadline): Promise<Exchange> {
    const method = (request.method ?? 'POST').toUpperCase();
    const body = request.body === undefined || request.body.length === 0 ? undefined : request.body;
    const answer = await agent.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: method as Dispatcher.HttpMethod,
      headers,
      body: body ?? null,
      signal: deadline.signal,
      headersTimeout: deadline.ms + UNDICI_BACKSTOP_MS,
      bodyTimeout: deadline.ms + UNDICI_BACKSTOP_MS,
    });
    return readAnswer(answer, method);
  }

  async function readAnswer(answer: Dispatcher.ResponseData, method: string): Promise<Exchange> {
    const contentType = headerValue(answer.headers, 'content-type') ?? '';
    const encoding = (headerValue(answer.headers, 'content-encoding') ?? '').trim().toLowerCase();
    const bodyless = method === 'HEAD' || answer.statusCode === 204 || answer.statusCode === 304;
    const decoder = bodyless ? undefined : decoderFor(encoding);
    const source: Readable = decoder ? pipeline(answer.body, decoder, () => undefined) : answer.body;
    // An encoding we cannot decode (zstd…) is passed through as bytes, unparsed.
    const readable = encoding === '' || encoding === 'identity' || decoder !== undefined;
    const format = readable ? streamFormatOf(contentType) : undefined;
    const assembler: StreamAssembler | undefined = format ? createStreamAssembler(format) : undefined;

    const chunks: Buffer[] = [];
    let size = 0;
    let grace: NodeJS.Timeout | undefined;
    try {
      for await (const chunk of source as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > maxResponseBytes) throw new ResponseTooLargeError(maxResponseBytes);
        chunks.push(chunk);
        if (!assembler) continue;
        assembler.push(chunk);
        // The end marker went by: the answer is complete. Give the body a moment to end so the socket
        // can be reused; a server that keeps the stream open is cut off (the socket is closed).
        if (assembler.done && grace === undefined) grace = setTimeout(() => source.destroy(), streamEndGraceMs);
      }
    } catch (error) {
      if (!assembler?.done || error instanceof ResponseTooLargeError) {
        source.destroy();
        throw error;
      }
    } finally {
      clearTimeout(grace);
    }
    if (assembler && !assembler.done) assembler.finish();

    const body = Buffer.concat(chunks);
    const result: Exchange = {
      status: answer.statusCode,
      headers: forwardableResponseHeaders(answer.headers, { decoded: decoder !== undefined }),
      body,
      contentType,
      isEventStream: assembler !== undefined,
    };
    if (readable && isTextual(contentType)) result.text = body.toString('utf8');
    if (assembler) {
      result.streamFormat = assembler.format;
      result.streamComplete = assembler.done;
      result.assembled = assembler.text;
    } else if (result.text !== undefined && /json/i.test(contentType) && result.text.trimStart().startsWith('[')) {
      // vendor_d streamGenerateContent without alt=sse: the stream is one JSON array of chunks.
      try {
        const assembled = assembleJsonChunks(JSON.parse(result.text) as unknown);
        if (assembled !== undefined) result.assembled = assembled;
      } catch {
        // Not JSON after all: no assembled text.
      }
    }
    return result;
  }

  function failure(error: unknown, deadline: Deadline, url: URL): PalisadeError {
    const origin = safeOrigin(url);
    if (error instanceof PalisadeError) return error;
    if (deadline.timedOut || isTimeoutError(error)) {
      logger?.warn({ upstream: origin, timeout_ms: deadline.ms }, 'upstream request timed out');
      return new PalisadeError('LLM_TIMEOUT', { message: `The LLM backend ${origin} did not answer within ${deadline.ms} ms`, cause: error });
    }
    if (deadline.callerAborted) {
      return new PalisadeError('LLM_REQUEST_FAILED', { message: `The request to the LLM backend ${origin} was aborted by the caller`, cause: error });
    }
    const reason = error instanceof ResponseTooLargeError ? error.message : describeFailure(error);
    logger?.warn({ upstream: origin, code: findErrorCode(error)?.code, reason }, 'upstream request failed');
    return new PalisadeError('LLM_REQUEST_FAILED', { message: `Request to the LLM backend ${origin} failed: ${reason}`, cause: error });
  }

  return {
    async send(request) {
      const started = performance.now();
      if (closed) throw new PalisadeError('LLM_REQUEST_FAILED', { message: 'The upstream client is closed' });
      const timeoutMs = request.timeoutMs;
      if (!Number.isFinite(timeoutMs) || timeoutMs <= 0 || timeoutMs > 2_147_483_647) {
        throw new PalisadeError('INTERNAL_ERROR', { message: `invalid upstream timeoutMs: ${String(timeoutMs)}` });
      }
      let url: URL;
      try {
        url = new URL(request.url);
      } catch (error) {
        throw new PalisadeError('LLM_REQUEST_FAILED', { message: 'The upstream URL is not a valid URL', cause: error });
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new PalisadeError('LLM_REQUEST_FAILED', { message: `Unsupported upstream URL scheme ${url.protocol}` });
      }

      const deadline = new Deadline(timeoutMs, request.signal);
      request.abortWith?.((reason) => deadline.abortByCaller(reason));
      try {
        const forwarded = forwardableRequestHeaders(request.headers, request.stripHeaders);
        const hasBody = request.body !== undefined && request.body.length > 0;
        const clientAuthorization = request.clientAuthorization ?? headerValue(request.headers, 'authorization');
        let applied = await auth.apply(request.auth, { clientAuthorization, signal: deadline.signal });
        let result = await exchange(url, request, withAuth(forwarded, applied, hasBody), deadline);
        let attempts = 1;
        if (result.status === 401 && request.auth?.type === 'oauth2_client_credentials' && applied.token !== undefined) {
          logger?.debug({ upstream: safeOrigin(url) }, 'upstream refused the OAuth token; fetching a new one and retrying once');
          applied = await auth.refresh(request.auth, applied.token, deadline.signal);
          result = await exchange(url, request, withAuth(forwarded, applied, hasBody), deadline);
          attempts = 2;
        }
        return { ...result, durationMs: performance.now() - started, attempts };
      } catch (error) {
        throw failure(error, deadline, url);
      } finally {
        deadline.dispose();
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      auth.clear();
      await agent.close();
    },
  };
}
