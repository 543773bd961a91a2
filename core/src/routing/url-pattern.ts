// URL patterns of providers with match_type `url` (DECISIONS.md, "URL and host patterns").
//
// Grammar (decided here, documented in routing/README.md):
// - A value starting with `^` is an RE2 regular expression, searched in the whole request URI
//   (path and query, as sent in X-Original-URI). `^` anchors the start; the end is anchored only by
//   an explicit `$`, so `^/v1/chat` and `^/v1/chat.*` both match `/v1/chat/completions?x=1`.
//   Compiled with `re2` (linear time, no backreferences or lookaround), never with a JS RegExp.
// - Anything else is a glob on the path of the URI (query and fragment removed, no decoding, case
//   sensitive): `*` matches any run of characters other than `/` (possibly empty), a segment that is
//   exactly `**` matches any number of whole segments, zero included (`/v1/**` matches `/v1`, `/v1/`
//   and `/v1/a/b`; `/a/**/b` matches `/a/b`), `**` inside a segment is the same as `*`, and every other
//   character is literal (`?`, `[`, `.` included).
//
// Matching is allocation-free except for the request's path and, for a glob with `**` or a `*` that
// passes the literal-prefix check, one split of that path shared by all patterns of the request.
import RE2 from 're2';
import { RoutePatternError } from './pattern-error.js';

/** The request's URI, with its path and path segments computed once and shared by every pattern. */
export class UrlInput {
  readonly uri: string;
  private pathValue: string | undefined;
  private segmentsValue: string[] | undefined;

  constructor(uri: string) {
    this.uri = uri;
  }

  /** The path of the URI: query and fragment removed, scheme and authority of an absolute URI removed. */
  get path(): string {
    return (this.pathValue ??= pathOf(this.uri));
  }

  get segments(): string[] {
    return (this.segmentsValue ??= this.path.split('/'));
  }
}

const ABSOLUTE_URI = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;

/** `/v1/chat?x=1` → `/v1/chat`; `http://h:1/v1?x` → `/v1`; `http://h` → `/`. */
export function pathOf(uri: string): string {
  let start = 0;
  if (uri.charCodeAt(0) !== 47 /* / */) {
    const authority = ABSOLUTE_URI.exec(uri);
    if (authority) start = authority[0].length;
  }
  let end = uri.length;
  const query = uri.indexOf('?', start);
  if (query !== -1) end = query;
  const fragment = uri.indexOf('#', start);
  if (fragment !== -1 && fragment < end) end = fragment;
  if (start === 0 && end === uri.length) return uri;
  const path = uri.slice(start, end);
  return path === '' && start > 0 ? '/' : path;
}

export interface UrlPattern {
  readonly kind: 'glob' | 'regex';
  readonly source: string;
  /** Characters that must appear literally: non-`*` characters of a glob, the literal prefix of a regex. */
  readonly literalLength: number;
  /** True when the pattern uses the query too (regex), so a cache key must include the whole URI. */
  readonly usesQuery: boolean;
  test(input: UrlInput): boolean;
}

/** Compiles a url match_value; throws RoutePatternError for a regex RE2 rejects. */
export function compileUrlPattern(value: string): UrlPattern {
  if (value.length === 0) throw new RoutePatternError('a url pattern must not be empty');
  return value.startsWith('^') ? compileRegex(value) : compileGlob(value);
}

// --- regular expressions ------------------------------------------------------------------------

function compileRegex(source: string): UrlPattern {
  let re: RE2;
  try {
    re = new RE2(source);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new RoutePatternError(
      `invalid regular expression ${JSON.stringify(source)}: ${reason} (RE2 syntax: no backreferences or lookaround)`,
    );
  }
  const prefix = regexLiteralPrefix(source);
  return {
    kind: 'regex',
    source,
    literalLength: [...prefix].length,
    usesQuery: true,
    // The literal prefix rejects most URIs before the native call.
    test: prefix ? (input) => input.uri.startsWith(prefix) && re.test(input.uri) : (input) => re.test(input.uri),
  };
}

const REGEX_META = new Set(['\\', '.', '+', '*', '?', '(', ')', '|', '[', ']', '{', '}', '^', '$']);

/**
 * The characters every match of an `^…` expression starts with: scanned after the `^` up to the first
 * metacharacter, class, group or escape that is not an escaped punctuation character; a character
 * followed by `?`, `*` or `{` is left out (it may occur zero times). Empty when the expression has a
 * top-level alternation (`^/a|/b`). Conservative: the URI of any match starts with it.
 */
export function regexLiteralPrefix(source: string): string {
  if (!source.startsWith('^') || hasTopLevelAlternation(source)) return '';
  let prefix = '';
  let i = 1;
  while (i < source.length) {
    let literal: string;
    let next: number;
    const c = String.fromCodePoint(source.codePointAt(i)!);
    if (c === '\\') {
      const escaped = source[i + 1];
      if (escaped === undefined || /[A-Za-z0-9]/.test(escaped)) break; // \d, \b, \Q… : not a plain literal
      literal = escaped;
      next = i + 2;
    } else if (REGEX_META.has(c)) {
      break;
    } else {
      literal = c;
      next = i + c.length;
    }
    const quantifier = source[next];
    if (quantifier === '?' || quantifier === '*' || quantifier === '{') break;
    prefix += literal;
    if (quantifier === '+') break;
    i = next;
  }
  return prefix;
}

function hasTopLevelAlternation(source: string): boolean {
  let depth = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      if (source[i + 1] === 'Q') return true; // quoted text may hold a `|`; give up on the prefix
      i++;
    } else if (c === '[') {
      // skip the class: `[^]…]` and `[]…]` start with a literal `]`
      i++;
      if (source[i] === '^') i++;
      if (source[i] === ']') i++;
      while (i < source.length && source[i] !== ']') i += source[i] === '\\' ? 2 : 1;
    } else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) return true;
  }
  return false;
}

// --- globs -----------------------------------------------------------------------------------------

/** One path segment of a glob: a whole-segment `**`, a literal, or literal parts joined by `*`. */
type Segment = { kind: 'globstar' } | { kind: 'literal'; text: string } | { kind: 'wild'; parts: string[] };

function compileGlob(source: string): UrlPattern {
  let literalLength = 0;
  for (const c of source) if (c !== '*') literalLength++;

  if (!source.includes('*')) {
    return { kind: 'glob', source, literalLength, usesQuery: false, test: (input) => input.path === source };
  }

  const segments: Segment[] = source.split('/').map((text): Segment => {
    if (text === '**') return { kind: 'globstar' };
    if (!text.includes('*')) return { kind: 'literal', text };
    return { kind: 'wild', parts: text.split(/\*+/) };
  });

  // Every match starts with the text before the first `*`; when that `*` opens a whole `**` segment,
  // the `/` before it may be absent too (`/v1/**` matches `/v1`).
  const star = source.indexOf('*');
  let prefix = source.slice(0, star);
  const opensGlobstar = (star === 0 || source[star - 1] === '/') && source[star + 1] === '*' && (star + 2 === source.length || source[star + 2] === '/');
  if (opensGlobstar && prefix.endsWith('/')) prefix = prefix.slice(0, -1);

  return {
    kind: 'glob',
    source,
    literalLength,
    usesQuery: false,
    test: (input) => input.path.startsWith(prefix) && matchSegments(segments, input.segments),
  };
}

/**
 * Greedy matching with backtracking to the last `**`: every other pattern segment matches exactly one
 * path segment, so this is the classic wildcard algorithm over segments (O(n·m) at worst, no blow-up).
 */
function matchSegments(pattern: Segment[], path: string[]): boolean {
  let p = 0;
  let s = 0;
  let starP = -1;
  let starS = 0;
  while (s < path.length) {
    const seg = pattern[p];
    if (seg !== undefined && seg.kind === 'globstar') {
      starP = p++;
      starS = s;
    } else if (seg !== undefined && matchSegment(seg, path[s]!)) {
      p++;
      s++;
    } else if (starP !== -1) {
      p = starP + 1;
      s = ++starS;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p]!.kind === 'globstar') p++;
  return p === pattern.length;
}

function matchSegment(seg: Exclude<Segment, { kind: 'globstar' }>, text: string): boolean {
  if (seg.kind === 'literal') return seg.text === text;
  return matchStars(seg.parts, text);
}

/** `parts` joined by `*` against text: first part a prefix, last a suffix, the rest found in order. */
function matchStars(parts: string[], text: string): boolean {
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  if (text.length < first.length + last.length) return false;
  if (!text.startsWith(first) || !text.endsWith(last)) return false;
  let at = first.length;
  const end = text.length - last.length;
  for (let i = 1; i < parts.length - 1; i++) {
    const part = parts[i]!;
    const found = text.indexOf(part, at);
    if (found === -1 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}
