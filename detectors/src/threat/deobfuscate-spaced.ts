// Spaced-out letters ("i g n o r e", "s.y.s.t.e.m") joined into words, for the de-obfuscated view
// (deobfuscate.ts).
import { codeUnitsOf, stringOfCodeUnits } from '@palisade/core';
import { isThreatSurrogate, THREAT_CHAR, THREAT_CHAR_TABLE, threatCodesCharWidth } from './char-classes.js';

const LETTER = /\p{L}/u;

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
 * of collections (see stringOfCodeUnits).
 */
export function joinThreatSpacedLetters(text: string): { text: string; count: number } {
  const codes = codeUnitsOf(text);
  const joined = joinThreatSpacedLetterCodes(codes, text.length);
  return joined.count === 0 ? { text, count: 0 } : { text: stringOfCodeUnits(codes, joined.length), count: joined.count };
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
    p = nextSpacedRunStart(codes, length, p);
    if (p >= length) break;
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
 * The first position at or after `from` where a SPACED_RUN may start, `length` when there is none; every
 * position skipped is one where the scan above would find no run. A run starts with a letter of one or
 * two code units, its separator, a letter of one or two and the same separator again (three letters at
 * least), so it needs a separator s at some j with s at j + 2, or at j + 3 after a high surrogate; it
 * starts at j - 1, or at j - 2 after a low surrogate. Ordinary prose has a few such places per
 * sentence, where the scan above tested two classes at every code unit.
 */
function nextSpacedRunStart(codes: Uint16Array, length: number, from: number): number {
  for (let j = from + 1; j + 2 < length; j++) {
    const separator = codes[j]!;
    if (!isSpacedSeparator(separator)) continue;
    const after = codes[j + 1]!;
    if (codes[j + 2] !== separator && !(after >= 0xd800 && after < 0xdc00 && j + 3 < length && codes[j + 3] === separator)) continue;
    const before = codes[j - 1]!;
    return Math.max(from, before >= 0xdc00 && before <= 0xdfff ? j - 2 : j - 1);
  }
  return length;
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

