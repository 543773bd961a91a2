// One OTLP/HTTP export: a serialized batch POSTed to the collector through undici, tried again on a
// retryable answer (429, 502-504, the collector unreachable) after its Retry-After or Palisade's backoff,
// until the export's deadline. Runs in the export worker (otlp-export-worker.ts).
import { gzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { Agent } from 'undici';
import { request } from 'undici';
import { backoffDelay, type BackoffOptions } from '../service/backoff.js';
import { readLimited } from '../service/read-limited.js';

const compress = promisify(gzip);

/** Where and how a batch goes: the SDK's OTLP/HTTP configuration, headers resolved. */
export interface OtlpPost {
  url: string;
  headers: Record<string, string>;
  compression: 'gzip' | 'none';
  userAgent?: string | undefined;
}

/** The SDK's ExportResponse, with a failure's error as a message (it crosses a thread). */
export type OtlpPostResult = { status: 'success'; data?: Uint8Array } | { status: 'failure'; message: string } | { status: 'retryable'; retryInMillis?: number; message?: string };

/** An answer body larger than this is not read (the SDK's transport sets the same bound). */
const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
const USER_AGENT = 'palisade-otlp-exporter';
const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);
// The OTLP exporter specification's retry count, first delay and cap; each further delay doubles
// (Palisade's one backoff rule) where the SDK's transport multiplies by 1.5.
const MAX_RETRIES = 5;
export const OTLP_RETRY_BACKOFF: BackoffOptions = { initialMs: 1_000, maxMs: 5_000, jitter: 0.2 };

function retryAfterMs(value: string | string[] | undefined): number | undefined {
  const header = Array.isArray(value) ? value[0] : value;
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

async function postOnce(post: OtlpPost, dispatcher: Agent, data: Uint8Array, timeoutMs: number): Promise<OtlpPostResult> {
  const headers: Record<string, string> = { ...post.headers, 'user-agent': post.userAgent ? `${post.userAgent} ${USER_AGENT}` : USER_AGENT };
  let body: Uint8Array = data;
  if (post.compression === 'gzip') {
    body = await compress(data);
    headers['content-encoding'] = 'gzip';
  }
  try {
    const answer = await request(post.url, { method: 'POST', headers, body, dispatcher, headersTimeout: timeoutMs, bodyTimeout: timeoutMs, signal: AbortSignal.timeout(timeoutMs) });
    const payload = await readLimited(answer.body, MAX_RESPONSE_BYTES);
    if (payload === undefined) return { status: 'failure', message: `the OTLP collector's answer is over ${MAX_RESPONSE_BYTES} bytes` };
    if (answer.statusCode >= 200 && answer.statusCode < 300) return { status: 'success', data: payload };
    const wait = retryAfterMs(answer.headers['retry-after']);
    if (RETRYABLE_STATUS.has(answer.statusCode)) return { status: 'retryable', ...(wait === undefined ? {} : { retryInMillis: wait }) };
    return { status: 'failure', message: `the OTLP collector answered HTTP ${answer.statusCode}` };
  } catch (error) {
    // Unreachable, restarting or slow: worth another try within the export's time.
    return { status: 'retryable', message: error instanceof Error ? error.message : String(error) };
  }
}

/** Posts `data`, retrying a retryable answer while the deadline (`timeoutMs` from now) allows. */
export async function postOtlpBatch(post: OtlpPost, dispatcher: Agent, data: Uint8Array, timeoutMs: number, backoff = OTLP_RETRY_BACKOFF): Promise<OtlpPostResult> {
  const deadline = Date.now() + timeoutMs;
  let result = await postOnce(post, dispatcher, data, timeoutMs);
  for (let retry = 0; retry < MAX_RETRIES && result.status === 'retryable'; retry++) {
    const wait = result.retryInMillis ?? backoffDelay(retry, backoff);
    if (wait >= deadline - Date.now()) break;
    await new Promise((resolve) => setTimeout(resolve, wait));
    result = await postOnce(post, dispatcher, data, deadline - Date.now());
  }
  return result;
}
