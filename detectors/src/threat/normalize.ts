// The detector's own cheap normalisation. The gateway's normalizer already did NFKC, zero-width removal
// and homoglyph resolution, but the service can be called directly, and the model was trained on text
// normalised exactly this way, so it is applied to every input (idempotent on normalised text).
import { codeUnitsOf, stringOfCodeUnits, withoutCodeUnits } from '@palisade/core';
import { isThreatSurrogate, THREAT_CHAR, THREAT_CHAR_TABLE, threatCodesCharWidth } from './char-classes.js';

// Zero-width and invisible format characters that split words without showing: ZW space/joiners, word
// joiner, BOM, soft hyphen, Mongolian vowel separator, bidi marks and the invisible math operators.
const INVISIBLE = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF]/;

// Lower-case lookalikes after NFKC + toLowerCase. Only letters whose glyphs are practically identical in
// common fonts (к, м and т as capitals: К, М, Т; the text is lower-cased first), so an ordinary word is
// never changed into a different one. The two tables are each other's reverse for the letters both have.
const CYRILLIC_TO_LATIN: Readonly<Record<string, string>> = {
  а: 'a', е: 'e', о: 'o', р: 'p', с: 'c', у: 'y', х: 'x', к: 'k', м: 'm', т: 't', і: 'i', ј: 'j', ѕ: 's', ԁ: 'd', ԛ: 'q', ԝ: 'w', ӏ: 'l', һ: 'h',
  // Greek letters that pass for Latin ones.
  α: 'a', ο: 'o', ε: 'e', ι: 'i', κ: 'k', ν: 'v', ρ: 'p', τ: 't', υ: 'u', χ: 'x',
};
const LATIN_TO_CYRILLIC: Readonly<Record<string, string>> = {
  a: 'а', e: 'е', o: 'о', p: 'р', c: 'с', y: 'у', x: 'х', k: 'к', m: 'м', t: 'т',
};

/** A lookalike table as code unit → code unit (0: kept); every key and value is one BMP character. */
function codeTable(table: Readonly<Record<string, string>>): Uint16Array {
  const codes = new Uint16Array(0x530);
  for (const [from, to] of Object.entries(table)) codes[from.charCodeAt(0)] = to.charCodeAt(0);
  return codes;
}
const TO_LATIN = codeTable(CYRILLIC_TO_LATIN);
const TO_CYRILLIC = codeTable(LATIN_TO_CYRILLIC);

const CYRILLIC = /\p{Script=Cyrillic}/u;
const LATIN = /\p{Script=Latin}/u;
const LETTER_OR_MARK = /[\p{L}\p{M}]/u;
/** A word can change only if the text has a Cyrillic letter or a Greek lookalike. */
const MAY_CHANGE = /[\p{Script=Cyrillic}αοεικνρτυχ]/u;
const GREEK_LOOKALIKES = new Set([...'αοεικνρτυχ'].map((ch) => ch.charCodeAt(0)));

/**
 * Maps each mixed word's lookalike letters to one script: the one that leaves no letter of the other
 * (the Cyrillic "е", "м", "а", "і" of "емаіl" become Latin, since "l" has no Cyrillic twin), else the
 * word's dominant script. Words are the runs of /[\p{L}\p{M}]+/u, found with the character table in one
 * pass; only a word that changes is copied (a replace() callback per word was the normalisation's
 * largest cost on Cyrillic text).
 */
export function resolveThreatHomoglyphs(text: string): string {
  // Most prompts have neither: one scan instead of a per-word, per-letter script test.
  if (!MAY_CHANGE.test(text)) return text;
  // The text is read from, and changed words rewritten in, one copy of its code units (each lookalike
  // is one code unit for one), not concatenated: a text of one long mixed-script word made a rope of a
  // million pieces.
  const codes = codeUnitsOf(text);
  return resolveThreatHomoglyphCodes(codes, codes.length) > 0 ? stringOfCodeUnits(codes, text.length) : text;
}

/** Whether resolveThreatHomoglyphs could change the code units [0, length): a Cyrillic letter, a Greek lookalike or an astral character. */
export function mayHaveThreatHomoglyphs(codes: Uint16Array, length: number): boolean {
  for (let i = 0; i < length; i++) {
    const c = codes[i]!;
    if (c >= 0x3b1 && ((THREAT_CHAR_TABLE[c]! & THREAT_CHAR.cyrillic) !== 0 || GREEK_LOOKALIKES.has(c) || isThreatSurrogate(c))) return true;
  }
  return false;
}

/** What the homoglyph scan needs of a BMP code unit, in one table (HOMOGLYPH_CLASSES). */
const HOMOGLYPH = { word: 1, latin: 2, cyrillic: 4, greekLookalike: 8, surrogate: 16, hasTwin: 32 } as const;

/**
 * Per BMP code unit: `word` for a letter or mark (a word's character), with the script it counts for
 * in a word (`latin`, `cyrillic`) and whether it is a Greek lookalike; `surrogate` for a surrogate
 * (astral characters are classified by their regexes). One read per code unit instead of a class test
 * and a chain of range and script tests.
 */
const HOMOGLYPH_CLASSES = ((): Uint8Array => {
  const classes = new Uint8Array(0x10000);
  for (let c = 0; c < 0x10000; c++) {
    if (isThreatSurrogate(c)) {
      classes[c] = HOMOGLYPH.surrogate;
      continue;
    }
    const flags = THREAT_CHAR_TABLE[c]!;
    if ((flags & (THREAT_CHAR.letter | THREAT_CHAR.mark)) === 0) continue;
    let cls: number = HOMOGLYPH.word;
    // 0485-0486 are the Cyrillic block's Inherited marks.
    if ((c >= 0x400 && c <= 0x52f && c !== 0x485 && c !== 0x486) || (flags & THREAT_CHAR.cyrillic) !== 0) cls |= HOMOGLYPH.cyrillic;
    else if ((flags & THREAT_CHAR.latin) !== 0) cls |= HOMOGLYPH.latin;
    if (GREEK_LOOKALIKES.has(c)) cls |= HOMOGLYPH.greekLookalike;
    // A Latin or Cyrillic letter with a lookalike in the other script.
    if ((c < TO_LATIN.length && TO_LATIN[c] !== 0) || (c < TO_CYRILLIC.length && TO_CYRILLIC[c] !== 0)) cls |= HOMOGLYPH.hasTwin;
    classes[c] = cls;
  }
  return classes;
})();

/** resolveThreatHomoglyphs of the code units [0, length) of `codes`, in place; returns how many words changed. */
export function resolveThreatHomoglyphCodes(codes: Uint16Array, length: number): number {
  const wordFlags = THREAT_CHAR.letter | THREAT_CHAR.mark;
  const classes = HOMOGLYPH_CLASSES;
  let changed = 0;
  let i = 0;
  while (i < length) {
    const start = i;
    let cyrillic = 0;
    let latin = 0;
    // Letters of each script without a lookalike in the other: they decide which script the word can take.
    let cyrillicOnly = 0;
    let latinOnly = 0;
    let greek = false;
    // The word's characters: letters and marks (/[\p{L}\p{M}]+/u), astral ones by the regex.
    while (i < length) {
      const cls = classes[codes[i]!]!;
      if ((cls & HOMOGLYPH.word) !== 0) {
        const isLatin = (cls >> 1) & 1;
        const isCyrillic = (cls >> 2) & 1;
        const alone = (cls & HOMOGLYPH.hasTwin) === 0 ? 1 : 0;
        latin += isLatin;
        cyrillic += isCyrillic;
        latinOnly += isLatin & alone;
        cyrillicOnly += isCyrillic & alone;
        if ((cls & HOMOGLYPH.greekLookalike) !== 0) greek = true;
        i++;
        continue;
      }
      if ((cls & HOMOGLYPH.surrogate) === 0 || threatCodesCharWidth(codes, length, i, wordFlags, LETTER_OR_MARK) === 0) break;
      const ch = String.fromCharCode(codes[i]!, codes[i + 1]!);
      if (CYRILLIC.test(ch)) {
        cyrillic++;
        cyrillicOnly++;
      } else if (LATIN.test(ch)) {
        latin++;
        latinOnly++;
      }
      i += 2;
    }
    if (i === start) {
      i++;
      continue;
    }
    let table: Uint16Array | undefined;
    // Greek lookalikes inside an otherwise Latin word.
    if (cyrillic === 0 || latin === 0) table = latin > 0 && greek ? TO_LATIN : undefined;
    else if (cyrillicOnly === 0 && latinOnly > 0) table = TO_LATIN;
    else if (latinOnly === 0 && cyrillicOnly > 0) table = TO_CYRILLIC;
    else table = cyrillic > latin ? TO_CYRILLIC : TO_LATIN;
    if (table === undefined) continue;
    // Keys are BMP letters, so mapping code units maps the word's code points (surrogates stay).
    let wordChanged = false;
    for (let j = start; j < i; j++) {
      const c = codes[j]!;
      const to = c < table.length ? table[c]! : 0;
      if (to !== 0) {
        codes[j] = to;
        wordChanged = true;
      }
    }
    if (wordChanged) changed++;
  }
  return changed;
}

/**
 * 1 for each code unit of the set that NFKC leaves alone in any text made only of them: code points of
 * the Latin, Cyrillic and punctuation blocks that are their own NFKC and are no combining mark (none
 * of them composes with the character before it); 0 for every other code unit, surrogates included.
 * Built once from normalize() itself; a table read per code unit instead of a regex of the set's
 * ranges, which cost a sixth of a 2 KB prompt's views.
 */
const NFKC_STABLE = ((): Uint8Array => {
  const ranges: Array<[number, number]> = [
    [0x00, 0x24f],
    [0x400, 0x52f],
    [0x2000, 0x206f],
    [0x20a0, 0x20bf],
  ];
  const stable = new Uint8Array(0x10000);
  for (const [from, to] of ranges) {
    for (let c = from; c <= to; c++) {
      const ch = String.fromCharCode(c);
      if (ch.normalize('NFKC') === ch && !/\p{M}/u.test(ch)) stable[c] = 1;
    }
  }
  return stable;
})();

/** Whether NFKC may change `text`: false only for text made of characters NFKC leaves alone wherever they stand. */
export function threatNfkcMayChange(text: string): boolean {
  const stable = NFKC_STABLE;
  for (let i = 0; i < text.length; i++) if (stable[text.charCodeAt(i)] === 0) return true;
  return false;
}

/** text.normalize('NFKC'), without ICU's pass (and its copy of the text) when no character can change. */
function threatNfkc(text: string): string {
  return threatNfkcMayChange(text) ? text.normalize('NFKC') : text;
}

/** INVISIBLE as a table of code units (all of its characters are in the BMP). */
const INVISIBLE_UNIT = ((): Uint8Array => {
  const table = new Uint8Array(0x10000);
  for (let c = 0; c < 0x10000; c++) if (c < 0xd800 || c > 0xdfff) table[c] = INVISIBLE.test(String.fromCharCode(c)) ? 1 : 0;
  return table;
})();

/** NFKC, invisible characters removed; case and spacing kept (base64 blocks need their case). */
export function stripThreatInvisibles(text: string): string {
  return withoutCodeUnits(threatNfkc(text), INVISIBLE_UNIT);
}

/**
 * stripThreatInvisibles(text), and the same applied to that (what lowerThreatText starts with). The
 * second is the first unless an invisible character was removed: NFKC and the removal are each
 * idempotent, but a removed character may have kept apart two that NFKC now composes.
 * `invisibleRemoved`: whether the first pass removed an invisible character.
 */
export function stripThreatInvisiblesTwice(text: string): { once: string; twice: string; invisibleRemoved: boolean } {
  const normalized = threatNfkc(text);
  const once = withoutCodeUnits(normalized, INVISIBLE_UNIT);
  const invisibleRemoved = once.length !== normalized.length;
  return { once, twice: invisibleRemoved ? stripThreatInvisibles(once) : once, invisibleRemoved };
}

/**
 * The invisible characters an attacker puts between the letters of words to split them for an n-gram
 * model ("i\u200bg\u200bn\u200bo\u200br\u200be"): those INVISIBLE removes (zero-width space, word
 * joiner and the invisible operators, BOM, Mongolian vowel separator, bidi embeddings, overrides and
 * isolates) but the zero-width (non-)joiner, the soft hyphen and the left-to-right / right-to-left
 * marks, which stand inside words of ordinary Persian, Indic, Hebrew and emoji text and of hyphenated
 * copies.
 */
const WORD_SPLITTER = ((): Uint8Array => {
  const table = INVISIBLE_UNIT.slice();
  for (const c of [0x00ad, 0x200c, 0x200d, 0x200e, 0x200f]) table[c] = 0;
  return table;
})();

/** Letters at most between two splits for the split to count ("i\u200bg\u200bn…", not a long URL cut for line breaks). */
const SPLIT_PIECE_MAX = 3;

/**
 * How many places of `text` hold one or more word splitters (WORD_SPLITTER) between two letters, the
 * letters before them a piece of at most SPLIT_PIECE_MAX: an attacker splits every letter or two, while
 * a web page's zero-width break hints cut long words and URLs into long pieces. One pass that counts
 * the letters since the last split or non-letter.
 */
export function countThreatWordSplits(text: string): number {
  const table = THREAT_CHAR_TABLE;
  const letter = THREAT_CHAR.letter;
  let splits = 0;
  let piece = 0;
  let pending = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (WORD_SPLITTER[c] === 1) {
      // A run of splitters is one split: only the first sees the piece.
      if (piece > 0) pending = piece <= SPLIT_PIECE_MAX;
      piece = 0;
      continue;
    }
    if ((table[c]! & letter) !== 0) {
      if (pending) splits++;
      piece++;
    } else piece = 0;
    pending = false;
  }
  return splits;
}

/** Whitespace runs (including newlines) to one space, trimmed: replace(/\s+/gu, ' ').trim(). */
export function collapseThreatWhitespace(text: string): string {
  // \s holds only BMP characters, all in the table's space class (surrogates are not in it).
  const isSpace = (i: number): boolean => (THREAT_CHAR_TABLE[text.charCodeAt(i)]! & THREAT_CHAR.space) !== 0;
  let start = 0;
  let end = text.length;
  while (start < end && isSpace(start)) start++;
  while (end > start && isSpace(end - 1)) end--;
  // Most text has only single spaces inside: then the result is the text without its ends.
  let first = start;
  while (first < end && !(isSpace(first) && (text.charCodeAt(first) !== 0x20 || isSpace(first + 1)))) first++;
  if (first === end) return start === 0 && end === text.length ? text : text.slice(start, end);
  // Compacted in one copy of the code units, not by replace() (see stringOfCodeUnits).
  const codes = codeUnitsOf(text);
  return stringOfCodeUnits(codes, collapseThreatWhitespaceCodes(codes, text.length));
}

/** collapseThreatWhitespace of the code units [0, length) of `codes`, in place; returns the new length. */
export function collapseThreatWhitespaceCodes(codes: Uint16Array, length: number): number {
  const space = (c: number): boolean => (THREAT_CHAR_TABLE[c]! & THREAT_CHAR.space) !== 0;
  let start = 0;
  let end = length;
  while (start < end && space(codes[start]!)) start++;
  while (end > start && space(codes[end - 1]!)) end--;
  // Between `start` and `end` every run of spaces lies between two other characters, so each run
  // becomes one space.
  let n = 0;
  let i = start;
  while (i < end) {
    const c = codes[i++]!;
    if (!space(c)) {
      codes[n++] = c;
      continue;
    }
    codes[n++] = 0x20;
    while (i < end && space(codes[i]!)) i++;
  }
  return n;
}

/**
 * The form every feature is computed on: NFKC, invisibles removed, lower-cased, homoglyphs resolved per
 * word, whitespace collapsed. Spacing is collapsed last so that callers who need the spacing (spaced-out
 * letters) can run the steps before it themselves.
 */
export function normalizeThreatText(text: string): string {
  return collapseThreatWhitespace(lowerThreatText(text));
}

/** Every step of normalizeThreatText but the whitespace collapse. */
export function lowerThreatText(text: string): string {
  return resolveThreatHomoglyphs(stripThreatInvisibles(text).toLowerCase());
}
