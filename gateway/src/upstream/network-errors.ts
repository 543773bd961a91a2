/**
 * Naming why an upstream exchange failed: the system / undici / TLS error code found anywhere in an
 * error's cause chain (AggregateError members included, as Node's happy-eyeballs connect throws one),
 * and a short English description of it for the LLM_REQUEST_FAILED message.
 */

/** Codes that mean the backend did not answer in time (mapped to LLM_TIMEOUT, 504). */
export const TIMEOUT_CODES: ReadonlySet<string> = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** Descriptions of the failure codes we expect, as data; anything else is reported by its code. */
export const FAILURE_DESCRIPTIONS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by the backend',
  ECONNABORTED: 'connection aborted',
  EPIPE: 'connection closed by the backend while sending',
  UND_ERR_SOCKET: 'connection closed by the backend',
  ENOTFOUND: 'DNS lookup failed',
  EAI_AGAIN: 'DNS lookup failed (temporary)',
  EAI_FAIL: 'DNS lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EHOSTDOWN: 'host down',
  ETIMEDOUT: 'connect timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connect timed out',
  UND_ERR_CLOSED: 'upstream client closed',
  UND_ERR_DESTROYED: 'upstream client closed',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'answer shorter or longer than its content-length',
  UND_ERR_HEADERS_OVERFLOW: 'answer headers too large',
  UND_ERR_INVALID_ARG: 'invalid request',
  UND_ERR_NOT_SUPPORTED: 'request not supported',
  ERR_STREAM_PREMATURE_CLOSE: 'connection closed by the backend before the end of the answer',
  Z_DATA_ERROR: 'answer body could not be decompressed',
  Z_BUF_ERROR: 'answer body could not be decompressed',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS: self-signed certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'TLS: self-signed certificate in the chain',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS: unable to verify the certificate',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'TLS: unknown certificate issuer',
  UNABLE_TO_GET_ISSUER_CERT: 'TLS: unknown certificate issuer',
  CERT_HAS_EXPIRED: 'TLS: certificate expired',
  CERT_NOT_YET_VALID: 'TLS: certificate not yet valid',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS: certificate does not match the host name',
};

/** TLS verification codes, for the hint that GATEWAY_LLM_INSECURE_SKIP_VERIFY exists. */
const TLS_VERIFY_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

interface Coded {
  code: string;
  message: string;
}

/** The most specific coded error in the chain: a system code beats undici's wrapper codes. */
export function findErrorCode(error: unknown): Coded | undefined {
  const seen = new Set<unknown>();
  const found: Coded[] = [];
  const visit = (e: unknown, depth: number): void => {
    if (e === null || typeof e !== 'object' || seen.has(e) || depth > 8) return;
    seen.add(e);
    const { code, message, cause, errors } = e as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === 'string' && code !== '') found.push({ code, message: typeof message === 'string' ? message : '' });
    if (cause !== undefined) visit(cause, depth + 1);
    if (Array.isArray(errors)) for (const inner of errors) visit(inner, depth + 1);
  };
  visit(error, 0);
  return found.find((f) => !f.code.startsWith('UND_ERR')) ?? found[0];
}

/** `connection refused (ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:4000)`, or the plain message. */
export function describeFailure(error: unknown): string {
  const coded = findErrorCode(error);
  if (!coded) {
    const message = error instanceof Error ? error.message : String(error);
    return message === '' ? 'unknown error' : message;
  }
  const what = FAILURE_DESCRIPTIONS[coded.code] ?? (coded.code.startsWith('HPE_') ? 'invalid HTTP answer' : coded.code.startsWith('ERR_SSL') ? 'TLS failure' : 'request failed');
  const detail = coded.message !== '' && coded.message !== coded.code ? `${coded.code}: ${coded.message}` : coded.code;
  const hint = TLS_VERIFY_CODES.has(coded.code) ? '; GATEWAY_LLM_INSECURE_SKIP_VERIFY=true skips verification' : '';
  return `${what} (${detail})${hint}`;
}

export function isTimeoutError(error: unknown): boolean {
  const coded = findErrorCode(error);
  if (coded && TIMEOUT_CODES.has(coded.code)) return true;
  // findErrorCode prefers system codes; look for undici's timeout wrappers explicitly too.
  let e: unknown = error;
  for (let i = 0; i < 8 && e !== null && typeof e === 'object'; i += 1) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && TIMEOUT_CODES.has(code)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** Scheme, host and port only: paths and queries of upstream URLs may hold keys (`?key=`). */
export function safeOrigin(url: URL): string {
  return url.origin;
}

/** Origin and path, no query, no credentials: for naming an OAuth token endpoint. */
export function safeEndpoint(url: URL): string {
  return `${url.origin}${url.pathname}`;
}
