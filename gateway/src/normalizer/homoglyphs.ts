// Homoglyph normalization (spec, "Gateway pipeline"; on by default in every profile):
// (1) Unicode NFKC, (2) removal of invisible characters, (3) per-word resolution to the dominant script
// (scripts.ts). The result carries an offset map (offset-map.ts) from normalized positions back to the
// original's, because detectors see the normalized text and masking rewrites the original.
//
// Removed characters: the spec's U+200B ZERO WIDTH SPACE, U+200C ZWNJ, U+200D ZWJ, U+FEFF BOM/ZWNBSP,
// and, beyond the spec, the other characters that render as nothing and are used the same way to split
// a keyword for a filter while a reader (or a model) still sees the word: U+2060 WORD JOINER, U+00AD
// SOFT HYPHEN, U+180E MONGOLIAN VOWEL SEPARATOR (a zero-width space until Unicode 6.3) and U+2061–U+2064
// (invisible mathematical operators). Tag characters (U+E0000 block) are not removed: text hidden in
// them is a payload for the threat detector to see, not noise.
//
// Order: invisible characters go before NFKC runs, so that "e", U+200B, U+0301 composes to "é" and the
// output is always in NFKC (normalizing it again changes nothing).
import { newInt32List, pushInt32, withoutCodeUnits } from '@palisade/core';
import { IDENTITY_OFFSETS, OffsetMapBuilder, type OffsetMap } from './offset-map.js';
import { resolveMixedScripts } from './scripts.js';
import { BMP_FLAGS, BMP_NFKC, CONTINUATION, CONTINUATION_PATTERN, INTERESTING, STABLE, isInvisible } from './unicode-tables.js';

export interface HomoglyphNormalization {
  /** The normalized text detectors see. */
  text: string;
  /** False when `text` is the original. */
  changed: boolean;
  /** Normalized positions → original positions (identity when nothing moved). */
  offsets: OffsetMap;
}

const NON_ASCII = /[^\x00-\x7f]/;
const INVISIBLE_ALL = /[\u00ad\u180e\u200b-\u200d\u2060-\u2064\ufeff]/g;
/** Continuations outside the BMP (e.g. U+1D165 musical combining marks, U+E0100 variation selectors). */
const CONTINUATION_AT = new RegExp(CONTINUATION_PATTERN.source, 'uy');

const codePointLength = (text: string, i: number) => {
  const c = text.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff || i + 1 >= text.length) return 1;
  const d = text.charCodeAt(i + 1);
  return d >= 0xdc00 && d <= 0xdfff ? 2 : 1;
};

function isContinuationAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff) return (BMP_FLAGS[c]! & CONTINUATION) !== 0;
  CONTINUATION_AT.lastIndex = i;
  return CONTINUATION_AT.test(text);
}

interface Normalized {
  text: string;
  offsets: OffsetMap;
}

/** Receives a piece: `origLength` original code units made `normLength` normalized ones (positional: one for one). */
type PieceSink = (origLength: number, normLength: number, positional: boolean) => void;

const isContinuationOrInvisible = (text: string, i: number) => isInvisible(text.charCodeAt(i)) || isContinuationAt(text, i);

/**
 * Pieces for text[from, to), whose NFKC is expected[at, …): each cluster (a character and the
 * continuations after it) normalized alone, so a span maps to the very characters that produced it.
 * Stretches that need no look are skipped with one regex scan and become positional pieces. Every
 * piece is checked against `expected`; undefined when they disagree (a composition across clusters
 * that this clustering does not foresee). Each piece goes to `piece` as it is found; returns the end in
 * `expected`.
 */
function clusterPieces(text: string, from: number, to: number, expected: string, at: number, piece: PieceSink): number | undefined {
  let out = at;
  let runStart = from;
  /** Unchanged text[runStart, upTo) must be expected[out, …) too. */
  const flushRun = (upTo: number): boolean => {
    const length = upTo - runStart;
    if (length <= 0) return true;
    for (let k = 0; k < length; k++) if (expected.charCodeAt(out + k) !== text.charCodeAt(runStart + k)) return false;
    out += length;
    piece(length, length, true);
    return true;
  };
  let i = from;
  while (i < to) {
    let c = text.charCodeAt(i);
    if (c < 0xd800 && (BMP_FLAGS[c]! & STABLE) !== 0 && !isInvisible(c) && (i + 1 >= to || !isContinuationOrInvisible(text, i + 1))) {
      // Nothing to do here: jump to the next code unit that needs a look, then back to its cluster's start.
      INTERESTING.lastIndex = i + 1;
      if (!INTERESTING.test(text) || INTERESTING.lastIndex - 1 >= to) break;
      let b = INTERESTING.lastIndex - 1;
      if (isContinuationOrInvisible(text, b)) {
        while (b - 1 > i && isContinuationOrInvisible(text, b - 1)) b--;
        b--;
        const low = text.charCodeAt(b);
        if (low >= 0xdc00 && low <= 0xdfff && b - 1 > i) b--;
      }
      i = Math.max(b, i + 1);
      c = text.charCodeAt(i);
    }
    if (isInvisible(c)) {
      if (!flushRun(i)) return undefined;
      piece(1, 0, false);
      runStart = ++i;
      continue;
    }
    let j = i + codePointLength(text, i);
    let invisibleInside = false;
    for (;;) {
      let k = j;
      while (k < to && isInvisible(text.charCodeAt(k))) k++;
      if (k >= to || !isContinuationAt(text, k)) break;
      if (k > j) invisibleInside = true;
      j = k + codePointLength(text, k);
    }
    if (j === i + 1) {
      // A stable code unit has no entry: the flag is read instead of the map (a letter before each zero-width space).
      const single = (BMP_FLAGS[c]! & STABLE) !== 0 ? undefined : BMP_NFKC.get(c);
      if (single === undefined) {
        i = j;
        continue;
      }
      // One code unit for one (fullwidth ｇ → g) stays in the positional run; others are pieces.
      if (single.length === 1) {
        if (!flushRun(i) || expected.charCodeAt(out) !== single.charCodeAt(0)) return undefined;
        out++;
        piece(1, 1, true);
      } else {
        if (!flushRun(i) || !expected.startsWith(single, out)) return undefined;
        out += single.length;
        piece(1, single.length, false);
      }
      runStart = i = j;
      continue;
    }
    const cluster = text.slice(i, j);
    const normalized = (invisibleInside ? cluster.replace(INVISIBLE_ALL, '') : cluster).normalize('NFKC');
    if (normalized !== cluster) {
      if (!flushRun(i) || !expected.startsWith(normalized, out)) return undefined;
      out += normalized.length;
      piece(j - i, normalized.length, false);
      runStart = j;
    }
    i = j;
  }
  if (!flushRun(to)) return undefined;
  return out;
}

/**
 * The offset map for text → expected (its NFKC, invisible characters removed). Cluster-wise NFKC
 * equals NFKC of the whole for nearly every text; when it does not (e.g. compatibility jamo ㄱㅏ → 가),
 * the text is split before every ASCII character — NFKC never composes a character with an ASCII one
 * that follows it nor reorders across one, so the parts normalize alone, exactly — and only the parts
 * whose clusters disagree are mapped whole.
 */
function offsetsOf(text: string, expected: string): OffsetMap {
  // The whole text's pieces go straight into a builder (a zero-width character between every two
  // letters makes two pieces per letter: a list of them copied into the builder cost about a sixth of
  // the normalisation); when they disagree with `expected`, that builder is dropped.
  const first = new OffsetMapBuilder();
  if (clusterPieces(text, 0, text.length, expected, 0, (o, n, p) => first.add(o, n, p)) === expected.length) return first.build();
  const builder = new OffsetMapBuilder();
  const n = text.length;
  let out = 0;
  let i = 0;
  while (i < n) {
    let j = i + 1;
    while (j < n && text.charCodeAt(j) >= 0x80) j++;
    if (j === i + 1 && text.charCodeAt(i) < 0x80) {
      builder.add(1, 1, true);
      out++;
      i = j;
      continue;
    }
    const normalized = text.slice(i, j).replace(INVISIBLE_ALL, '').normalize('NFKC');
    // The part's pieces are kept aside until they are known to agree (flat triples: original length,
    // normalized length, positional 0/1).
    const part = newInt32List();
    const fine = clusterPieces(text, i, j, normalized, 0, (o, n, p) => {
      pushInt32(part, o);
      pushInt32(part, n);
      pushInt32(part, p ? 1 : 0);
    });
    if (fine === normalized.length) for (let k = 0; k < part.size; k += 3) builder.add(part.data[k]!, part.data[k + 1]!, part.data[k + 2] === 1);
    else builder.add(j - i, normalized.length, false);
    out += normalized.length;
    i = j;
  }
  if (out !== expected.length) throw new Error('normalizer: the pieces do not tile the normalized text');
  return builder.build();
}

/** isInvisible as a table of code units, for withoutCodeUnits. */
const INVISIBLE_UNITS = Uint8Array.from({ length: 0x10000 }, (_, c) => (isInvisible(c) ? 1 : 0));

/** Steps (1) and (2): NFKC and invisible characters, with the offset map. */
export function normalizeUnicode(text: string): Normalized {
  // The text itself when it holds none (one scan, no copy).
  const cleaned = withoutCodeUnits(text, INVISIBLE_UNITS);
  const hasInvisible = cleaned !== text;
  const expected = cleaned.normalize('NFKC');
  if (!hasInvisible && expected === text) return { text, offsets: IDENTITY_OFFSETS };
  return { text: expected, offsets: offsetsOf(text, expected) };
}

/** The spec's three steps on one text. ASCII-only text is returned as it is at once. */
export function normalizeHomoglyphs(text: string): HomoglyphNormalization {
  if (!NON_ASCII.test(text)) return { text, changed: false, offsets: IDENTITY_OFFSETS };
  const unicode = normalizeUnicode(text);
  const resolved = resolveMixedScripts(unicode.text);
  return { text: resolved, changed: resolved !== text, offsets: unicode.offsets };
}
