// The HTTP transport of the translation detector: the same Detector contract as the in-process
// translator. A 503 answer (no model) or no answer rejects with SERVICE_UNAVAILABLE, which the
// normalizer skips; another failure rejects with the service's own code.
import { createJsonServiceClient } from '@palisade/detectors';
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

function parseAnswer(body: unknown): TranslateAnswer {
  if (body !== null && typeof body === 'object' && typeof (body as TranslateAnswer).translation === 'string') return body as TranslateAnswer;
  throw new TypeError('not a translation');
}

export function createTranslationClient(options: TranslationClientOptions): TranslationClient {
  const client = createJsonServiceClient<TranslateCall, TranslateAnswer>({
    url: options.url,
    path: TRANSLATE_HTTP_PATH,
    service: 'Translation service',
    internalToken: options.internalToken,
    timeoutMs: options.timeoutMs,
    connections: options.connections ?? 16,
    keepAliveTimeoutMs: 30_000,
    parse: parseAnswer,
  });
  return { kind: 'translation', detect: (request, call) => client.call(request, call), close: () => client.close() };
}
