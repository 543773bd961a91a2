// JWT: three base64url segments joined by dots (five for an encrypted JWE), where the first decodes to a
// JSON object naming its algorithm ("alg", or "enc" for JWE) and, for a signed token, the second decodes
// to a JSON object of claims. Base64 that is not a token (a lone segment, a payload that is not JSON,
// dotted words such as versions) does not count. An unsigned token ("alg": "none") or a token cut after
// the claims (with or without the second dot) still leaks its claims and counts, with a lower score.
// The scan jumps from each "eyJ" (the encoding of '{"') to the end of its run: linear in the text.
// Mask (our choice): the header segment kept (it names the algorithm only), claims and signature "***".
import type { PiiCandidate, PiiRule } from '../rule.js';
import { isTokenChar } from '../text/chars.js';

const MAX_SEGMENT = 16 * 1024;

function decodeJsonObject(segment: string): Record<string, unknown> | undefined {
  if (segment.length === 0 || segment.length > MAX_SEGMENT) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The end of the run of base64url characters from `i`. */
function runEnd(text: string, i: number): number {
  while (i < text.length && isTokenChar(text.charCodeAt(i))) i++;
  return i;
}

function tokenAt(text: string, start: number): { candidate?: PiiCandidate; next: number } {
  const segments: Array<[number, number]> = [];
  let i = start;
  for (;;) {
    const end = runEnd(text, i);
    segments.push([i, end]);
    if (segments.length === 5 || text.charCodeAt(end) !== 46 /* . */) {
      i = end;
      break;
    }
    i = end + 1;
  }
  const next = i;
  // "…signature." at the end of a sentence: the full stop opens no fourth segment.
  while (segments.length > 3 && segments[segments.length - 1]![0] === segments[segments.length - 1]![1]) segments.pop();
  if (segments.length < 2 || segments.length === 4) return { next };
  const [h0, h1] = segments[0]!;
  const header = decodeJsonObject(text.slice(h0, h1));
  if (!header) return { next };
  const end = segments[segments.length - 1]![1];
  if (segments.length === 5) {
    return typeof header.enc === 'string' ? { candidate: { start, end, score: 0.95 }, next } : { next };
  }
  if (typeof header.alg !== 'string') return { next };
  const [p0, p1] = segments[1]!;
  if (!decodeJsonObject(text.slice(p0, p1))) return { next };
  // Header and claims without the signature ("token=<header>.<claims>"): the claims leak all the same.
  if (segments.length === 2) return { candidate: { start, end: p1, score: 0.8 }, next };
  const [s0, s1] = segments[2]!;
  const signed = s1 - s0 >= 16 || (header.alg === 'none' && s1 === s0);
  // A trailing dot with nothing after it is punctuation; the token ends before it.
  return { candidate: { start, end: s1 === s0 ? s0 - 1 : end, score: signed ? 0.95 : 0.8 }, next };
}

export const jwtRule: PiiRule = {
  type: 'JWT',
  scan({ text }) {
    const out: PiiCandidate[] = [];
    let from = 0;
    for (let at = text.indexOf('eyJ', from); at !== -1; at = text.indexOf('eyJ', from)) {
      if (at > 0 && (isTokenChar(text.charCodeAt(at - 1)) || text.charCodeAt(at - 1) === 46)) {
        // Inside a longer run: skip to its end, so each character is looked at a bounded number of times.
        from = runEnd(text, at);
        continue;
      }
      const { candidate, next } = tokenAt(text, at);
      if (candidate) out.push(candidate);
      from = Math.max(next, at + 3);
    }
    return out;
  },
  mask(value) {
    const dot = value.indexOf('.');
    return dot === -1 ? '***' : `${value.slice(0, dot)}.***.***`;
  },
};
