// Undoing the cheap obfuscations attackers use to slip past n-gram models: leetspeak ("1gn0r3"),
// spaced-out letters ("i g n o r e") and instructions wrapped in base64. Each produces an extra view of
// the prompt that is scored like plain text; the prompt's score is the maximum over its views.
import { isUtf8 } from 'node:buffer';
import {
  isThreatSurrogate,
  lowerThreatCodes,
  THREAT_CHAR,
  THREAT_CHAR_TABLE,
  threatCodesCharWidth,
  threatCodesOf,
  threatCodesRoom,
  threatStringOfCodes,
  threatWriteCodes,
} from './char-classes.js';
import {
  collapseThreatWhitespace,
  collapseThreatWhitespaceCodes,
  lowerThreatText,
  mayHaveThreatHomoglyphs,
  resolveThreatHomoglyphCodes,
  stripThreatInvisiblesTwice,
} from './normalize.js';

const LEET: Readonly<Record<string, string>> = {
  '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '@': 'a', $: 's', '!': 'i', '|': 'l', '€': 'e',
};
const LETTER = /\p{L}/u;
const HAS_LEET = /[0134578@$!|€]/;
const MAX_LEET_WORD = 16;

/** LEET as code units: each leet character and its letter are one BMP code unit (0: not leet). */
const LEET_TO = new Uint16Array(128);
for (const [from, to] of Object.entries(LEET)) if (from.charCodeAt(0) < 128) LEET_TO[from.charCodeAt(0)] = to.charCodeAt(0);
const EURO = 0x20ac; // € is the one non-ASCII leet character
const leetLetter = (c: number): number => (c < 128 ? LEET_TO[c]! : c === EURO ? LEET['€']!.charCodeAt(0) : 0);
const isLeetCode = (c: number): boolean => leetLetter(c) !== 0;
const LEET_TOKEN_CHAR = /[\p{L}\p{N}]/u;
const LEET_TOKEN_FLAGS = THREAT_CHAR.letter | THREAT_CHAR.number;

// leetCounts packs its four counts into one number, six bits each: it counts tokens of at most 32 code units.
const LETTERS = 0;
const FLANKED = 6; // leet characters with a letter on both sides ("h3llo")
const TOUCHING = 12; // leet characters with a letter on at least one side
const POINTS = 18; // code points of the token
const MAX_COUNTED_UNITS = 32;
const field = (counts: number, shift: number): number => (counts >>> shift) & 63;

/**
 * The counts of the token text[start, end), read by code point (as [...token] splits it) without
 * splitting it; `codes` holds the text's code units.
 */
function leetCounts(codes: Uint16Array, length: number, start: number, end: number): number {
  let letters = 0;
  let flanked = 0;
  let touching = 0;
  let points = 0;
  let previousLetter = false;
  // A leet character waits for the next code point to know whether a letter follows it.
  let pending = false;
  let pendingAfterLetter = false;
  for (let i = start; i < end; points++) {
    const c = codes[i]!;
    const width = isThreatSurrogate(c) ? Math.max(1, threatCodesCharWidth(codes, length, i, LEET_TOKEN_FLAGS, LEET_TOKEN_CHAR)) : 1;
    const letter = width === 1 ? (THREAT_CHAR_TABLE[c]! & THREAT_CHAR.letter) !== 0 : LETTER.test(String.fromCharCode(c, codes[i + 1]!));
    if (pending) {
      if (pendingAfterLetter && letter) flanked++;
      if (pendingAfterLetter || letter) touching++;
      pending = false;
    }
    if (letter) letters++;
    else if (isLeetCode(c)) {
      pending = true;
      pendingAfterLetter = previousLetter;
    }
    previousLetter = letter;
    i += width;
  }
  if (pending && pendingAfterLetter) touching++;
  return (letters << LETTERS) | (flanked << FLANKED) | (touching << TOUCHING) | (points << POINTS);
}

/**
 * Calls `visit` with each token of /[\p{L}\p{N}@$!|€]+/gu that holds a leet character and has `min` to
 * `max` code units, found with the character table (a matchAll over every token of an ordinary prompt
 * with a digit in it cost more than the rest of the de-obfuscation); stops at the first visit that
 * returns true and returns whether one did.
 */
function someLeetToken(codes: Uint16Array, length: number, min: number, max: number, visit: (start: number, end: number) => boolean): boolean {
  let i = 0;
  while (i < length) {
    const start = i;
    let leet = false;
    while (i < length) {
      const c = codes[i]!;
      let width: number;
      if (isLeetCode(c)) {
        leet = true;
        width = 1;
      } else if (!isThreatSurrogate(c)) width = (THREAT_CHAR_TABLE[c]! & LEET_TOKEN_FLAGS) !== 0 ? 1 : 0;
      else width = threatCodesCharWidth(codes, length, i, LEET_TOKEN_FLAGS, LEET_TOKEN_CHAR);
      if (width === 0) break;
      i += width;
    }
    if (i === start) {
      i++;
      continue;
    }
    if (leet && i - start >= min && i - start <= max && visit(start, i)) return true;
  }
  return false;
}

/**
 * Leetspeak mapped back to letters. A prompt counts as leetspeak when some token has a leet character
 * between two letters ("h3llo") or two touching letters ("pr0mp7"); then every token where a leet
 * character touches a letter is mapped ("4ll", "th3"). Prompts without such a token ("the 1st",
 * "gpt-4", "mp3", "win10") are left as they are. Returns the text and how many tokens changed.
 */
export function undoThreatLeetspeak(text: string): { text: string; count: number } {
  if (!HAS_LEET.test(text)) return { text, count: 0 };
  const codes = threatCodesOf(text);
  const count = undoThreatLeetspeakCodes(codes, text.length);
  return count === 0 ? { text, count } : { text: threatStringOfCodes(codes, text.length), count };
}

/** undoThreatLeetspeak of the code units [0, length) of `codes`, in place; returns the count. */
export function undoThreatLeetspeakCodes(codes: Uint16Array, length: number): number {
  // Long tokens are identifiers, hashes or base64, not words written in leetspeak: the test takes
  // tokens of at most 16 code units, the mapping at most 16 code points, as the regexes they replaced
  // did. A leetspeak token has two letters and a leet character, a mapped one a letter and a leet
  // character, so shorter tokens are not counted.
  let leet = false;
  for (let i = 0; i < length && !leet; i++) leet = isLeetCode(codes[i]!);
  if (!leet) return 0;
  const isLeetspeak = (start: number, end: number): boolean => {
    const c = leetCounts(codes, length, start, end);
    return field(c, LETTERS) >= 2 && (field(c, FLANKED) > 0 || field(c, TOUCHING) >= 2);
  };
  if (!someLeetToken(codes, length, 3, MAX_LEET_WORD, isLeetspeak)) return 0;
  // The mapped tokens are rewritten in the code units (leet characters map one code unit to one), not
  // by a replace() callback per token (see threatStringOfCodes); a token is counted before it is
  // rewritten, and the scan goes on after it.
  let count = 0;
  // More than 32 code units are more than 16 code points.
  someLeetToken(codes, length, 2, MAX_COUNTED_UNITS, (start, end) => {
    const c = leetCounts(codes, length, start, end);
    if (field(c, POINTS) > MAX_LEET_WORD || field(c, LETTERS) === 0 || field(c, TOUCHING) === 0) return false;
    count++;
    for (let j = start; j < end; j++) codes[j] = leetLetter(codes[j]!) || codes[j]!;
    return false;
  });
  return count;
}

// Three or more single letters separated by the same one-character separator ("i g n o r e",
// "s.y.s.t.e.m"). Two spaces, or a different separator, end a run: that is how spaced-out text marks
// word boundaries. SPACED_RUN is /(?<![\p{L}\p{N}])\p{L}([ ._*\-])\p{L}(?:\1\p{L})+(?![\p{L}\p{N}])/gu
// (char-classes.test.ts holds the scan below to it).

const isSpacedSeparator = (c: number): boolean => c === 0x20 || c === 0x2e || c === 0x5f || c === 0x2a || c === 0x2d;
const WORD_CHAR = /[\p{L}\p{N}]/u;
const WORD_FLAGS = THREAT_CHAR.letter | THREAT_CHAR.number;

/**
 * Spaced-out letters joined into words; returns the text and how many runs were joined. The matches of
 * SPACED_RUN, replaced by their letters, found by a scan that writes into one buffer: the regex pushed a
 * backtracking entry per letter of a run and its replace() a piece per match, so a 1 MiB run cost 60 ms
 * of collections (see threatStringOfCodes).
 */
export function joinThreatSpacedLetters(text: string): { text: string; count: number } {
  const codes = threatCodesOf(text);
  const joined = joinThreatSpacedLetterCodes(codes, text.length);
  return joined.count === 0 ? { text, count: 0 } : { text: threatStringOfCodes(codes, joined.length), count: joined.count };
}

/**
 * joinThreatSpacedLetters of the code units [0, length) of `codes`, in place (the runs are compacted
 * towards the start); returns the new length and the count. Every read is at or after the write
 * position less two, where the text is still the original: each run joined drops two or more separators.
 */
export function joinThreatSpacedLetterCodes(codes: Uint16Array, length: number): { length: number; count: number } {
  if (!mayHaveSpacedRun(codes, length)) return { length, count: 0 };
  /** Code units of the letter at i, 0 when none is there. */
  const letterAt = (i: number): number => (i < length ? threatCodesCharWidth(codes, length, i, THREAT_CHAR.letter, LETTER) : 0);
  const wordCharAt = (i: number): boolean => i < length && threatCodesCharWidth(codes, length, i, WORD_FLAGS, WORD_CHAR) > 0;
  /** The lookbehind: a letter or number ends at i (an astral one is a pair ending there). */
  const wordCharBefore = (i: number): boolean => {
    if (i === 0) return false;
    const c = codes[i - 1]!;
    if (!isThreatSurrogate(c)) return (THREAT_CHAR_TABLE[c]! & WORD_FLAGS) !== 0;
    return c >= 0xdc00 && i >= 2 && codes[i - 2]! >= 0xd800 && codes[i - 2]! < 0xdc00 && WORD_CHAR.test(String.fromCharCode(codes[i - 2]!, c));
  };
  let written = -1;
  let copied = 0;
  let count = 0;
  let p = 0;
  while (p < length) {
    const first = letterAt(p);
    if (first === 0 || wordCharBefore(p)) {
      p += first > 0 ? first : 1;
      continue;
    }
    const separator = codes[p + first]!;
    let width = p + first < length && isSpacedSeparator(separator) ? letterAt(p + first + 1) : 0;
    if (width === 0) {
      p += first;
      continue;
    }
    // Greedy repetitions of separator + letter; when a letter or number follows the last one, the
    // regex backtracks one repetition (a separator follows that one) and needs one left.
    let letters = 2;
    let end = p + first + 1 + width;
    let before = end;
    while (end < length && codes[end] === separator && (width = letterAt(end + 1)) > 0) {
      before = end;
      end += 1 + width;
      letters++;
    }
    if (wordCharAt(end)) {
      end = before;
      letters--;
    }
    if (letters < 3) {
      p += first;
      continue;
    }
    count++;
    // What precedes the first run is already in place.
    if (written < 0) written = p;
    else for (let j = copied; j < p; j++) codes[written++] = codes[j]!;
    for (let j = p; j < end; j++) {
      const c = codes[j]!;
      if (c !== separator) codes[written++] = c;
    }
    copied = end;
    p = end;
  }
  if (written < 0) return { length, count: 0 };
  for (let j = copied; j < length; j++) codes[written++] = codes[j]!;
  return { length: written, count };
}

/**
 * A cheap test that never misses a SPACED_RUN: a separator after a letter that follows no letter or
 * number, a letter after it and the same separator one or two code units later. It rules out ordinary
 * prose in one table scan; the lookbehind regex costs a Unicode test at every position.
 */
function mayHaveSpacedRun(codes: Uint16Array, length: number): boolean {
  const table = THREAT_CHAR_TABLE;
  // Past the end reads as NaN, as charCodeAt did: never equal to a separator.
  const at = (i: number): number => (i < length ? codes[i]! : -1);
  for (let j = 1; j + 2 < length; j++) {
    const separator = codes[j]!;
    if (separator !== 0x20 && separator !== 0x2e && separator !== 0x5f && separator !== 0x2a && separator !== 0x2d) continue;
    if (codes[j + 2] !== separator && at(j + 3) !== separator) continue;
    const before = codes[j - 1]!;
    const after = codes[j + 1]!;
    if (!isThreatSurrogate(after) && (table[after]! & THREAT_CHAR.letter) === 0) continue;
    if (isThreatSurrogate(before)) return true;
    if ((table[before]! & THREAT_CHAR.letter) === 0) continue;
    if (j >= 2 && (table[codes[j - 2]!]! & (THREAT_CHAR.letter | THREAT_CHAR.number)) !== 0) continue;
    return true;
  }
  return false;
}

const BASE64_CHAR = new Uint8Array(128);
for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-') BASE64_CHAR[ch.charCodeAt(0)] = 1;
const BASE64_MIN_BLOCK = 20;

export interface ThreatBase64Options {
  /** At most this many blocks are decoded per prompt (bounds the work on hostile input). */
  maxBlocks: number;
  /** Blocks longer than this are skipped. */
  maxBlockChars: number;
}

export const THREAT_BASE64_DEFAULTS: ThreatBase64Options = { maxBlocks: 8, maxBlockChars: 64 * 1024 };

/**
 * Base64 blocks (standard or URL-safe alphabet, 20+ characters) that decode to readable UTF-8 text.
 * Identifiers, hashes and ordinary long words decode to binary noise and are dropped by the strict
 * UTF-8 test or the printable-text test.
 */
export function decodeThreatBase64Blocks(text: string, options: ThreatBase64Options = THREAT_BASE64_DEFAULTS): string[] {
  const out: string[] = [];
  const decoder = new TextDecoder('utf-8', { fatal: true });
  // The blocks are the matches of /[A-Za-z0-9+/_-]{20,}={0,2}/g, found as runs of a 128-entry table (a
  // run of 20 or more is a match from its start, and no shorter run holds one), their character classes
  // read by code: a hostile text holds tens of thousands of blocks, and a regex test per block, or an
  // exception per block that is not UTF-8, cost 4 µs each.
  const isBase64 = (c: number): boolean => c < 128 && BASE64_CHAR[c] === 1;
  const length = text.length;
  let i = 0;
  while (out.length < options.maxBlocks) {
    while (i < length && !isBase64(text.charCodeAt(i))) i++;
    if (i === length) break;
    const start = i;
    while (i < length && isBase64(text.charCodeAt(i))) i++;
    if (i - start < BASE64_MIN_BLOCK) continue;
    const end = i;
    while (i < text.length && i - end < 2 && text.charCodeAt(i) === 0x3d) i++;
    if (i - start > options.maxBlockChars) continue;
    let lower = false;
    let upperOrDigit = false;
    let urlSafe = false;
    for (let j = start; j < end; j++) {
      const c = text.charCodeAt(j);
      if (c >= 0x61 && c <= 0x7a) lower = true;
      else if ((c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39)) upperOrDigit = true;
      else if (c === 0x2d || c === 0x5f) urlSafe = true;
    }
    // Mixed case or digits: a real encoding, not a long lower-case word or an ALL-CAPS constant.
    if (!lower || !upperOrDigit) continue;
    const block = text.slice(start, i);
    const bytes = Buffer.from(urlSafe ? block.replace(/-/g, '+').replace(/_/g, '/') : block, 'base64');
    if (!isUtf8(bytes)) continue;
    const decoded = decoder.decode(bytes);
    if (threatReadableText(decoded)) out.push(decoded);
  }
  return out;
}

const READABLE = /[\p{L}\p{N}\p{P}\p{Zs}\n\t]/u;

/** Decoded base64 that reads as text: printable, mostly letters, with some spacing. */
export function threatReadableText(text: string): boolean {
  // The spacing test first: a hostile text can hold tens of thousands of blocks that decode to text
  // without any (a JSON header, an identifier), each then ruled out without a test per character.
  if (text.length < 8 || !/\s/.test(text)) return false;
  let readable = 0;
  let letters = 0;
  let total = 0;
  for (const ch of text) {
    total++;
    // Letters and numbers of the BMP by the table; the rest (and astral characters) by the regexes.
    const flags = ch.length === 1 ? THREAT_CHAR_TABLE[ch.charCodeAt(0)]! : 0;
    if ((flags & THREAT_CHAR.letter) !== 0) {
      readable++;
      letters++;
    } else if ((flags & THREAT_CHAR.number) !== 0) readable++;
    else {
      if (READABLE.test(ch)) readable++;
      if (ch.length === 2 && LETTER.test(ch)) letters++;
    }
  }
  return readable / total >= 0.95 && letters / total >= 0.5;
}

export interface ThreatTextViews {
  /** The normalised prompt (normalizeThreatText). */
  base: string;
  /** Leetspeak and spaced-out letters undone, normalised; only when it differs from `base`. */
  deobfuscated?: string;
  /** Normalised text of the base64 blocks that decoded to readable text (one level deep). */
  decoded: string[];
  /** How many leet tokens, spaced-letter runs and decoded base64 blocks were found. */
  obfuscation: { leet: number; spaced: number; base64: number };
}

/** The views of a prompt that are scored: the normalised text, its de-obfuscated form, decoded base64. */
export function threatTextViews(prompt: string, base64Options: ThreatBase64Options = THREAT_BASE64_DEFAULTS): ThreatTextViews {
  return createThreatViewBuilder(base64Options).views(prompt);
}

export interface ThreatViewBuilder {
  /** threatTextViews of `prompt`, with this builder's scratch buffers. */
  views(prompt: string): ThreatTextViews;
}

/**
 * threatTextViews with scratch buffers that live as long as the builder (the feature extractor holds
 * one). The normalised and the de-obfuscated texts are made in two buffers of code units, each step
 * rewriting them in place, and only the views themselves become strings: a string or a fresh buffer
 * per step cost a long prompt more in page faults (about 4 ms per MB on a VM) than the steps did. The
 * buffers grow to the longest prompt seen (2 bytes per code unit each, and 1 byte for one-byte text).
 */
export function createThreatViewBuilder(base64Options: ThreatBase64Options = THREAT_BASE64_DEFAULTS): ThreatViewBuilder {
  let lowered: Uint16Array = new Uint16Array(0);
  let collapsed: Uint16Array = new Uint16Array(0);
  let narrow = Buffer.alloc(0);
  const stringOf = (codes: Uint16Array, length: number): string => {
    if (narrow.length < length) narrow = Buffer.alloc(Math.max(length, 2 * narrow.length));
    return threatStringOfCodes(codes, length, narrow);
  };
  const views = (prompt: string): ThreatTextViews => {
    // What the string steps did: stripped = stripThreatInvisibles(prompt), lowered =
    // lowerThreatText(stripped), base = collapse(lowered), deobfuscated = collapse(leet(spaced(lowered))).
    const { once: stripped, twice } = stripThreatInvisiblesTwice(prompt);
    let length = twice.length;
    lowered = threatCodesRoom(lowered, length);
    threatWriteCodes(twice, lowered);
    if (!lowerThreatCodes(lowered, length)) {
      const lower = twice.toLowerCase();
      length = lower.length;
      lowered = threatCodesRoom(lowered, length);
      threatWriteCodes(lower, lowered);
    }
    if (mayHaveThreatHomoglyphs(lowered, length)) resolveThreatHomoglyphCodes(lowered, length);
    collapsed = threatCodesRoom(collapsed, length);
    collapsed.set(lowered.subarray(0, length));
    const baseLength = collapseThreatWhitespaceCodes(collapsed, length);
    const base = stringOf(collapsed, baseLength);
    // The de-obfuscation rewrites the lowered text in place: it is not needed after this.
    const spaced = joinThreatSpacedLetterCodes(lowered, length);
    const leet = undoThreatLeetspeakCodes(lowered, spaced.length);
    let deobfuscated: string | undefined;
    // Each run joined drops its separators and each leet token changes a code unit: the text differs
    // from the lowered one exactly when one was found.
    if (spaced.count > 0 || leet > 0) {
      const deobfuscatedLength = collapseThreatWhitespaceCodes(lowered, spaced.length);
      let same = deobfuscatedLength === baseLength;
      for (let i = 0; same && i < baseLength; i++) same = lowered[i] === collapsed[i];
      if (!same) deobfuscated = stringOf(lowered, deobfuscatedLength);
    }
    const decoded = decodeThreatBase64Blocks(stripped, base64Options).map((text) => collapseThreatWhitespace(lowerThreatText(text)));
    return {
      base,
      ...(deobfuscated !== undefined ? { deobfuscated } : {}),
      decoded,
      obfuscation: { leet, spaced: spaced.count, base64: decoded.length },
    };
  };
  return { views };
}
