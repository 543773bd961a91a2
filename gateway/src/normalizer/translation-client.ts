// The HTTP transport of the translation detector (ARCHITECTURE.md, "Process model": an undici Pool,
// keep-alive, a timeout): the same Detector contract as the in-process translator. A 503 answer (no
// model) rejects with SERVICE_UNAVAILABLE, which the normalizer skips; any other failure rejects with
// the service's own code, or SERVICE_UNAVAILABLE for the network (refused, reset, timed out).
import { Pool } from 'undici';
import { PalisadeError, isErrorCode } from '@palisade/core';
import type { DetectorCallOptions } from '@palisade/detectors';
import type { TranslateAnswer, TranslateCall, TranslationDetector } from './translation-types.js';

export const TRANSLATE_HTTP_PATH = '/api/v1/translate';

export interface TranslationClientOptions {
  /** The service's base URL, e.g. http://translation:8087. */
  url: string;
  /** Sent as X-Internal-Token when set (DECISIONS.md, "Internal calls"). */
  internalToken?: string | undefined;
  /** Whole call: connect, send, answer. */
  timeoutMs: number;
  /** Keep-alive connections to the service; default 16. */
  connections?: number;
}

export interface TranslationClient extends TranslationDetector {
  close(): Promise<void>;
}

interface ErrorBody {
  error?: { code?: unknown; message?: unknown; details?: unknown };
}

export function createTranslationClient(options: TranslationClientOptions): TranslationClient {
  const origin = new URL(options.url).origin;
  const pool = new Pool(origin, { connections: options.connections ?? 16, keepAliveTimeout: 30_000, pipelining: 1 });

  return {
    kind: 'translation',
    async detect(request: TranslateCall, call: DetectorCallOptions = {}): Promise<TranslateAnswer> {
      const timeout = AbortSignal.timeout(options.timeoutMs);
      const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
      const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
      if (options.internalToken) headers['x-internal-token'] = options.internalToken;
      if (call.traceId) headers['x-trace-id'] = call.traceId;
      let status: number;
      let body: unknown;
      try {
        const res = await pool.request({ path: TRANSLATE_HTTP_PATH, method: 'POST', headers, body: JSON.stringify(request), signal });
        status = res.statusCode;
        const text = await res.body.text();
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = undefined;
        }
      } catch (error) {
        const why = timeout.aborted ? `no answer within ${options.timeoutMs} ms` : call.signal?.aborted ? 'the caller stopped waiting' : error instanceof Error ? error.message : String(error);
        throw new PalisadeError('SERVICE_UNAVAILABLE', { message: `Translation service ${origin}: ${why}`, cause: error });
      }
      if (status === 200 && body !== null && typeof body === 'object' && typeof (body as TranslateAnswer).translation === 'string') {
        return body as TranslateAnswer;
      }
      const error = (body as ErrorBody | undefined)?.error;
      const message = typeof error?.message === 'string' ? error.message : `Translation service answered ${status}`;
      if (status === 503) throw new PalisadeError('SERVICE_UNAVAILABLE', { message });
      const code = isErrorCode(error?.code) ? error.code : 'INTERNAL_ERROR';
      throw new PalisadeError(code, { message, status, ...(error?.details !== undefined ? { details: error.details } : {}) });
    },
    async close() {
      await pool.close();
    },
  };
}
