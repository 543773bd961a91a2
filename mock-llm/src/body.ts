// Lenient body parsing: the mock records whatever arrived (even broken JSON) instead of
// rejecting it in the parser, so tests can inspect what the gateway actually forwarded.

/** JSON value, form fields (urlencoded), the raw string when unparsable, undefined when empty. */
export function parseBody(raw: string, contentType: string | undefined): unknown {
  if (raw.trim() === '') return undefined;
  if (contentType?.toLowerCase().includes('application/x-www-form-urlencoded')) {
    return Object.fromEntries(new URLSearchParams(raw));
  }
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/** First value of each query parameter (repeated parameters keep the first). */
export function flattenQuery(query: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof query !== 'object' || query === null) return out;
  for (const [k, v] of Object.entries(query as Record<string, unknown>)) {
    const first: unknown = Array.isArray(v) ? v[0] : v;
    if (typeof first === 'string') out[k] = first;
  }
  return out;
}
