// The HTTP transport of every internal service call (ARCHITECTURE.md, "Process model": an undici Pool
// with keep-alive and a timeout): POST a JSON body, get a JSON answer checked by the caller's parser.
// Detectors, the translation service and the decision point all go through it, so timeouts, the
// internal token, trace propagation and error mapping are the same everywhere.
import { Pool } from 'undici';
import { PalisadeError, isErrorCode, readLimited, withTraceHeaders } from '@palisade/core';
import type { DetectorCallOptions } from './contract.js';

export interface JsonServiceClientOptions<Response> {
  /** Base URL of the service, e.g. http://pii:8084 (a path prefix is kept). */
  url: string;
  /** The route, e.g. /api/v1/detect. */
  path: string;
  /** Names the service in error messages. */
  service: string;
  /** Sent as X-Internal-Token when set (DECISIONS.md, "Internal calls"). */
  internalToken?: string | undefined;
  /** The whole call: connect, send, answer. */
  timeoutMs: number;
  /** Keep-alive connections to the service; default 64. */
  connections?: number;
  keepAliveTimeoutMs?: number;
  /** The most bytes of an answer read; a longer one is refused as the service's failure. Default 64 MiB. */
  maxAnswerBytes?: number;
  /** Checks a 200 answer and returns it typed; throws (e.g. a ZodError) when it is not one. */
  parse(body: unknown): Response;
}

export interface JsonServiceClient<Request, Response> {
  call(request: Request, options?: DetectorCallOptions): Promise<Response>;
  close(): Promise<void>;
}

interface ErrorBody {
  error?: { code?: unknown; message?: unknown; details?: unknown };
}

/**
 * The services take bodies of at most 8 MiB; their answers are of that order (a PII answer lists the
 * entities of a 1 MiB text, a translation is a text). A peer sending more is broken or hostile, and the
 * timeout alone would let it stream hundreds of megabytes into the caller's memory over loopback.
 */
const DEFAULT_MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/** undici's own timers only back up ours, which always fire first. */
const UNDICI_BACKSTOP_MS = 1_000;

const unavailable = (message: string, cause?: unknown) => new PalisadeError('SERVICE_UNAVAILABLE', { message, ...(cause === undefined ? {} : { cause }) });

/**
 * Failures: no answer (refused, reset, timed out, the caller stopped waiting), a 503, or a 200 the
 * parser refuses → SERVICE_UNAVAILABLE; another error status → the service's own catalogue code and
 * status (INTERNAL_ERROR when it names none).
 */
export function createJsonServiceClient<Request, Response>(options: JsonServiceClientOptions<Response>): JsonServiceClient<Request, Response> {
  const { timeoutMs } = options;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new RangeError(`invalid ${options.service} timeoutMs: ${String(timeoutMs)}`);
  const base = new URL(options.url);
  const path = `${base.pathname.replace(/\/+$/, '')}${options.path}`;
  const pool = new Pool(base.origin, {
    connections: options.connections ?? 64,
    pipelining: 1,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 10_000,
    headersTimeout: timeoutMs + UNDICI_BACKSTOP_MS,
    bodyTimeout: timeoutMs + UNDICI_BACKSTOP_MS,
  });
  const fixedHeaders: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (options.internalToken) fixedHeaders['x-internal-token'] = options.internalToken;
  const name = `${options.service} (${base.origin})`;
  const maxAnswerBytes = options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;

  return {
    async call(request, call = {}) {
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
      // W3C traceparent of the caller's span (when traces are on): the service's span is its child.
      const headers = withTraceHeaders(call.traceId ? { ...fixedHeaders, 'x-trace-id': call.traceId } : fixedHeaders, call.traceContext);
      let status: number;
      let bytes: Buffer | undefined;
      try {
        const res = await pool.request({ path, method: 'POST', headers, body: JSON.stringify(request), signal });
        status = res.statusCode;
        bytes = await readLimited(res.body, maxAnswerBytes);
      } catch (error) {
        const why = timeout.aborted ? `no answer within ${timeoutMs} ms` : call.signal?.aborted ? 'the caller stopped waiting' : error instanceof Error ? error.message : String(error);
        throw unavailable(`${name}: ${why}`, error);
      }
      if (!bytes) throw unavailable(`${name} answered with more than ${maxAnswerBytes} bytes`);
      const text = bytes.toString('utf8');
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = undefined;
      }
      if (status === 200) {
        try {
          return options.parse(body);
        } catch (error) {
          throw unavailable(`${name} answered with an invalid body`, error);
        }
      }
      const error = (body as ErrorBody | undefined)?.error;
      const message = typeof error?.message === 'string' ? error.message : `${name} answered ${status}`;
      if (status === 503) throw unavailable(message);
      const code = isErrorCode(error?.code) ? error.code : 'INTERNAL_ERROR';
      throw new PalisadeError(code, { message, status, ...(error?.details !== undefined ? { details: error.details } : {}) });
    },
    close: () => pool.close(),
  };
}
