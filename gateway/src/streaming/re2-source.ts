// RE2 sources (the blocklist rules' syntax) as JavaScript `u` sources, for the prefix automaton
// (rule-prefixes.ts): no library maps RE2 syntax onto a JavaScript parser. Where the two differ in a
// way not translated here the answer is null, and the rule keeps its fixed hold-back.

const JS_SYNTAX = new Set('^$\\.*+?()[]{}|/'.split(''));

/** A keyword as a JavaScript `u` source: an exact literal. */
export function keywordSource(keyword: string): string {
  let out = '';
  for (const c of keyword) out += JS_SYNTAX.has(c) ? `\\${c}` : c;
  return out;
}

/**
 * RE2's Perl classes are ASCII (`\s` is `[\t\n\f\r ]`), JavaScript's `\s` is Unicode: `\S` would
 * then miss U+2028 and other spaces RE2 counts as non-space. Each becomes RE2's exact ranges.
 */
const PERL_CLASSES: Readonly<Record<string, string>> = {
  d: '0-9',
  D: '\\u{0}-\\u{2f}\\u{3a}-\\u{10ffff}',
  s: '\\t\\n\\f\\r ',
  S: '\\u{0}-\\u{8}\\u{b}\\u{e}-\\u{1f}\\u{21}-\\u{10ffff}',
  w: '0-9A-Z_a-z',
  W: '\\u{0}-\\u{2f}\\u{3a}-\\u{40}\\u{5b}-\\u{5e}\\u{60}\\u{7b}-\\u{10ffff}',
};

/** RE2's leading flag groups, `(?i)`, `(?s)`, `(?ims)` …: JavaScript takes them as flags. */
const LEADING_FLAGS = /^\(\?([imsU]+)\)/;

/** A translated piece of the source: its JavaScript text, the index of its last source character, and whether a class is open after it. */
interface Piece {
  text: string;
  end: number;
  inClass?: boolean;
}

const codePointEscape = (c: string): string => `\\u{${c.codePointAt(0)!.toString(16)}}`;

/** The source without its leading flag groups, and whether one asked for caseless matching. */
function leadingFlags(source: string): { rest: string; caseless: boolean } {
  let rest = source;
  let caseless = false;
  for (let m = LEADING_FLAGS.exec(rest); m; m = LEADING_FLAGS.exec(rest)) {
    if (m[1]!.includes('i')) caseless = true;
    rest = rest.slice(m[0].length);
  }
  return { rest, caseless };
}

/** The escape at `i` (a backslash), read with the character after it; `\Q…\E` becomes an escaped literal. */
function escapeAt(rest: string, i: number, inClass: boolean): Piece | null {
  const next = rest[i + 1];
  if (next === undefined) return null;
  const at = i + 1;
  if (next === 'Q') {
    const end = rest.indexOf('\\E', at + 1);
    const literal = end < 0 ? rest.slice(at + 1) : rest.slice(at + 1, end);
    let text = '';
    for (const ch of literal) text += codePointEscape(ch);
    return { text, end: end < 0 ? rest.length : end + 1 };
  }
  // Anchors: assertions are read as always true anyway.
  if (next === 'z' || next === 'A') return inClass ? null : { text: '', end: at };
  const perl = PERL_CLASSES[next];
  if (perl !== undefined) return { text: inClass ? perl : `[${perl}]`, end: at };
  if ((next === 'p' || next === 'P') && rest[at + 1] !== '{') {
    const name = rest[at + 1];
    if (name === undefined || !/[A-Za-z]/.test(name)) return null;
    return { text: `\\${next}{${name}}`, end: at + 1 };
  }
  if (next === 'x' && rest[at + 1] === '{') {
    const end = rest.indexOf('}', at + 2);
    return end < 0 ? null : { text: `\\u{${rest.slice(at + 2, end)}}`, end };
  }
  // Under `u`, JavaScript refuses identity escapes of most punctuation, which RE2 allows.
  if (!/[A-Za-z0-9]/.test(next)) return { text: codePointEscape(next), end: at };
  return { text: `\\${next}`, end: at };
}

/** A character inside a class: `]` closes it; POSIX classes are RE2's only. */
function classCharAt(rest: string, i: number): Piece | null {
  const c = rest[i]!;
  if (c === '[' && rest[i + 1] === ':') return null;
  return { text: c, end: i, inClass: c !== ']' };
}

/** A class opening at `i`, with its negation; a `]` first in a class is a literal in RE2. */
function classStartAt(rest: string, i: number): Piece {
  let text = '[';
  let end = i;
  if (rest[end + 1] === '^') {
    text += '^';
    end += 1;
  }
  if (rest[end + 1] === ']') {
    text += '\\]';
    end += 1;
  }
  return { text, end, inClass: true };
}

/** A `(?` group at `i`: a named group becomes a plain one (names would clash when the rules are joined); inline flags mid-pattern are not translated. */
function groupAt(rest: string, i: number): Piece | null {
  const nameAt = rest[i + 2] === 'P' && rest[i + 3] === '<' ? i + 4 : rest[i + 2] === '<' ? i + 3 : -1;
  if (nameAt >= 0) {
    const end = rest.indexOf('>', nameAt);
    return end < 0 ? null : { text: '(?:', end };
  }
  return rest[i + 2] === ':' ? { text: '(', end: i } : null;
}

/** The piece of the source at `i`. */
function pieceAt(rest: string, i: number, inClass: boolean): Piece | null {
  const c = rest[i]!;
  if (c === '\\') return escapeAt(rest, i, inClass);
  if (inClass) return classCharAt(rest, i);
  if (c === '[') return classStartAt(rest, i);
  if (c === '(' && rest[i + 1] === '?') return groupAt(rest, i);
  return { text: c, end: i };
}

/**
 * An RE2 source as a JavaScript `u` source and flags, or null where the two syntaxes differ in a way
 * not translated here (the rule then keeps its fixed length). Escapes are read pairwise, so the scan
 * is linear; `\Q…\E` becomes an escaped literal.
 */
export function re2ToJavaScript(source: string): { source: string; flags: string } | null {
  const { rest, caseless } = leadingFlags(source);
  let out = '';
  let inClass = false;
  for (let i = 0; i < rest.length; i += 1) {
    const piece = pieceAt(rest, i, inClass);
    if (!piece) return null;
    out += piece.text;
    i = piece.end;
    if (piece.inClass !== undefined) inClass = piece.inClass;
  }
  if (inClass) return null;
  // `s`: `.` matches every character (RE2's `.` takes \r and line separators that JavaScript's does not).
  return { source: out, flags: `su${caseless ? 'i' : ''}` };
}
