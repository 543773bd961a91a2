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
import { Agent, type Dispatcher } from 'undici';
import { PalisadeError } from '@palisade/core';
import { AnswerCollector, ResponseTooLargeError, type Exchange } from './answer-collector.js';
import { createUpstreamAuth, type AppliedAuth } from './auth.js';
import { Deadline } from './deadline.js';
import { forwardableRequestHeaders, headerValue, type HeaderMap } from './headers.js';
import { describeFailure, findErrorCode, isTimeoutError, safeOrigin } from './network-errors.js';
import type { UpstreamClient, UpstreamClientOptions, UpstreamRequest, UpstreamResponse } from './types.js';
import { extend } from '../objects.js';

export const UPSTREAM_DEFAULTS = {
  connections: 256,
  keepAliveTimeoutMs: 10_000,
  connectTimeoutMs: 10_000,
  maxResponseBytes: 64 * 1024 * 1024,
  streamEndGraceMs: 200,
} as const;

const PARSED_URL_CACHE = 1024;

/** undici's own header/body timers only back up our deadline, which always fires first. */
const UNDICI_BACKSTOP_MS = 5_000;

/** Adds the upstream credentials to the forwarded headers (a fresh object per call, so it is changed in place). */
function withAuth(headers: HeaderMap, applied: AppliedAuth, hasBody: boolean): HeaderMap {
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
  const parsedUrls = new Map<string, URL>();

  function exchange(url: URL, request: UpstreamRequest, headers: HeaderMap, deadline: Deadline): Promise<Exchange> {
    const method = (request.method ?? 'POST').toUpperCase();
    const body = request.body === undefined || request.body.length === 0 ? null : request.body;
    const collector = new AnswerCollector({ method, maxResponseBytes, streamEndGraceMs, onStreamStart: request.onStreamStart, expectedStream: request.expectedStream });
    deadline.onAbort((reason) => collector.abort(reason));
    agent.dispatch(
      {
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: method as Dispatcher.HttpMethod,
        headers,
        body,
        headersTimeout: deadline.ms + UNDICI_BACKSTOP_MS,
        bodyTimeout: deadline.ms + UNDICI_BACKSTOP_MS,
      },
      collector,
    );
    return collector.done;
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
      let url = parsedUrls.get(request.url);
      if (!url) {
        try {
          url = new URL(request.url);
        } catch (error) {
          throw new PalisadeError('LLM_REQUEST_FAILED', { message: 'The upstream URL is not a valid URL', cause: error });
        }
        // Upstream URLs are a provider's few targets: parsed once each (bounded for fallback URLs).
        if (parsedUrls.size >= PARSED_URL_CACHE) parsedUrls.clear();
        parsedUrls.set(request.url, url);
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
        // Only the OAuth token fetch does I/O; it alone needs a signal.
        const oauth = request.auth?.type === 'oauth2_client_credentials';
        let applied = await auth.apply(request.auth, { clientAuthorization, ...(oauth ? { signal: deadline.signal } : {}) });
        let result = await exchange(url, request, withAuth(forwarded, applied, hasBody), deadline);
        let attempts = 1;
        if (result.status === 401 && request.auth?.type === 'oauth2_client_credentials' && applied.token !== undefined) {
          logger?.debug({ upstream: safeOrigin(url) }, 'upstream refused the OAuth token; fetching a new one and retrying once');
          applied = await auth.refresh(request.auth, applied.token, deadline.signal);
          result = await exchange(url, request, withAuth(forwarded, applied, hasBody), deadline);
          attempts = 2;
        }
        return extend(result, { durationMs: performance.now() - started, attempts });
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
