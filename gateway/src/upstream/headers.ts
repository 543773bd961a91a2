/**
 * Which headers cross the gateway's upstream hop.
 *
 * Stripped in both directions (RFC 9110 7.6.1 hop-by-hop, plus framing the gateway redoes itself):
 *   connection, keep-alive, proxy-connection, every `proxy-*` header (proxy-authorization,
 *   proxy-authenticate, …), te, trailer, transfer-encoding, upgrade, content-length, and every header
 *   named in the message's own `Connection` header.
 * Also stripped from requests:
 *   host            — undici sets the upstream's own Host;
 *   expect          — 100-continue is not supported on the upstream hop;
 *   accept-encoding — replaced by `accept-encoding: identity`, so the answer arrives as plain text the
 *                     gateway can read and scan (a compressed answer is still decoded, see client.ts);
 *   authorization   — the upstream_auth strategy decides what goes upstream (auth.ts).
 * Also stripped from responses:
 *   content-encoding — only when the client decoded the body (the returned body is then plain).
 */

export type HeaderValue = string | readonly string[] | undefined;
export type HeaderInput = Readonly<Record<string, HeaderValue>>;
/** Lower-case names; a repeated header (set-cookie) keeps its values as an array. */
export type HeaderMap = Record<string, string | string[]>;

export const HOP_BY_HOP_HEADERS: readonly string[] = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
];

/** Never forwarded upstream, besides the hop-by-hop ones. */
export const REQUEST_ONLY_STRIPPED_HEADERS: readonly string[] = ['host', 'content-length', 'expect', 'accept-encoding', 'authorization'];

/** Never passed back from the upstream, besides the hop-by-hop ones. */
export const RESPONSE_ONLY_STRIPPED_HEADERS: readonly string[] = ['content-length'];

const HOP_SET = new Set(HOP_BY_HOP_HEADERS);
const REQUEST_SET = new Set([...HOP_BY_HOP_HEADERS, ...REQUEST_ONLY_STRIPPED_HEADERS]);
const RESPONSE_SET = new Set([...HOP_BY_HOP_HEADERS, ...RESPONSE_ONLY_STRIPPED_HEADERS]);

/** Names listed in a Connection header (`Connection: close, x-foo`), lower-cased. */
function connectionTokens(value: HeaderValue): Set<string> {
  const tokens = new Set<string>();
  const values = value === undefined ? [] : typeof value === 'string' ? [value] : value;
  for (const v of values) {
    for (const token of v.split(',')) {
      const t = token.trim().toLowerCase();
      if (t !== '') tokens.add(t);
    }
  }
  return tokens;
}

// These run twice per proxied call, so they avoid Object.entries and array copies: node and undici
// already give lower-case names, which a direct property read finds; other casings are scanned.
function findHeader(headers: HeaderInput, name: string): HeaderValue {
  const direct = headers[name];
  if (direct !== undefined) return direct;
  for (const key in headers) if (key.length === name.length && key.toLowerCase() === name) return headers[key];
  return undefined;
}

/** The first value of a header, looked up case-insensitively. */
export function headerValue(headers: HeaderInput | undefined, name: string): string | undefined {
  if (headers === undefined) return undefined;
  const value = findHeader(headers, name.toLowerCase());
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : value[0];
}

const NO_TOKENS: ReadonlySet<string> = new Set();

function filterHeaders(headers: HeaderInput | undefined, stripped: ReadonlySet<string>, extra: readonly string[] = []): HeaderMap {
  const out: HeaderMap = {};
  if (headers === undefined) return out;
  const connection = findHeader(headers, 'connection');
  // `keep-alive` and `close`, by far the usual values, name only headers stripped anyway.
  let dynamic = connection === undefined || connection === 'keep-alive' || connection === 'close' ? NO_TOKENS : connectionTokens(connection);
  if (extra.length > 0) {
    const all = new Set(dynamic);
    for (const name of extra) all.add(name.toLowerCase());
    dynamic = all;
  }
  for (const key in headers) {
    const value = headers[key];
    if (value === undefined) continue;
    const name = key.toLowerCase();
    if (stripped.has(name) || dynamic.has(name) || name.startsWith('proxy-')) continue;
    const existing = out[name];
    if (typeof value === 'string') {
      out[name] = existing === undefined ? value : [...(typeof existing === 'string' ? [existing] : existing), value];
    } else if (value.length > 0) {
      const merged = existing === undefined ? [...value] : [...(typeof existing === 'string' ? [existing] : existing), ...value];
      out[name] = merged.length === 1 ? (merged[0] as string) : merged;
    }
  }
  return out;
}

/** The caller's headers as they may go upstream (see the module comment for what is dropped). */
export function forwardableRequestHeaders(headers: HeaderInput | undefined, alsoStrip: readonly string[] = []): HeaderMap {
  return filterHeaders(headers, REQUEST_SET, alsoStrip);
}

/** The upstream's response headers as the gateway may pass them back. */
export function forwardableResponseHeaders(headers: HeaderInput | undefined, options: { decoded?: boolean } = {}): HeaderMap {
  return filterHeaders(headers, RESPONSE_SET, options.decoded ? ['content-encoding'] : []);
}

export function isHopByHopHeader(name: string): boolean {
  const n = name.toLowerCase();
  return HOP_SET.has(n) || n.startsWith('proxy-');
}
