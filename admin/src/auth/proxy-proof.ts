// Proof that forwarded identity headers come from our authentication proxy and not from whoever can
// reach the Admin API. Two forms, from one shared secret (a Kubernetes Secret on both sides):
// - X-Palisade-Identity-Signature: an HMAC-SHA256 of the identity headers and a timestamp, which our
//   proxy sets; a captured signature is only good for those exact headers for a few minutes;
// - X-Palisade-Proxy-Secret: the secret itself, a static header that oauth2-proxy can inject
//   (injectRequestHeaders) when it sits there instead of ours.
// Both pass through the Admin UI's reverse proxy unchanged, since they are ordinary headers.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export const SIGNATURE_HEADER = 'x-palisade-identity-signature';
export const SECRET_HEADER = 'x-palisade-proxy-secret';

/** The identity headers the signature covers, in this order (the spec's table). */
export const SIGNED_IDENTITY_HEADERS = [
  'x-forwarded-user',
  'x-forwarded-email',
  'x-forwarded-groups',
  'x-forwarded-preferred-username',
  'x-forwarded-tenant-id',
] as const;

/** How far a signature's timestamp may be from the Admin API's clock. */
export const SIGNATURE_MAX_SKEW_S = 300;

function first(headers: IncomingHttpHeaders, name: string): string {
  const value = headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

function mac(secret: string, timestamp: string, headers: IncomingHttpHeaders): string {
  const hmac = createHmac('sha256', secret).update(`v1\n${timestamp}`);
  for (const name of SIGNED_IDENTITY_HEADERS) hmac.update(`\n${first(headers, name)}`);
  return hmac.digest('base64url');
}

/** The signature header value for these identity headers, at `nowS` (Unix seconds). */
export function signIdentityHeaders(secret: string, headers: IncomingHttpHeaders, nowS = Math.floor(Date.now() / 1000)): string {
  return `t=${nowS},v1=${mac(secret, String(nowS), headers)}`;
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Whether the request carries a valid proof: the shared secret header or a fresh, matching signature. */
export function hasProxyProof(secret: string, headers: IncomingHttpHeaders, nowS = Math.floor(Date.now() / 1000)): boolean {
  const sent = first(headers, SECRET_HEADER);
  if (sent) return same(sent, secret);
  const match = /^t=(\d{1,12}),v1=([\w-]{1,100})$/.exec(first(headers, SIGNATURE_HEADER));
  if (!match) return false;
  const [, timestamp, signature] = match as unknown as [string, string, string];
  if (Math.abs(nowS - Number(timestamp)) > SIGNATURE_MAX_SKEW_S) return false;
  return same(signature, mac(secret, timestamp, headers));
}
