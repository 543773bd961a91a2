// The detector's own cheap normalisation. The gateway's normalizer already did NFKC, zero-width removal
// and homoglyph resolution, but the service can be called directly, and the model was trained on text
// normalised exactly this way, so it is applied to every input (idempotent on normalised text).
import { codeUnitsOf, stringOfCodeUnits } from '@palisade/core';
import { isThreatSurrogate, THREAT_CHAR, THREAT_CHAR_TABLE, threatCodesCharWidth } from './char-classes.js';

// Zero-width and invisible format characters that split words without showing: ZW space/joiners, word
// joiner, BOM, soft hyphen, Mongolian vowel separator, bidi marks and the invisible math operators.
const INVISIBLE = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF]/g;

// Lower-case lookalikes after NFKC + toLowerCase. Only letters whose glyphs are practically identical in
// common fonts, so an ordinary word is never changed into a different one.
const CYRILLIC_TO_LATIN: Readonly<Record<string, string>> = {
  а: 'a', е: 'e', о: 'o', р: 'p', с: 'c', у: 'y', х: 'x', і: 'i', ј: 'j', ѕ: 's', ԁ: 'd', ԛ: 'q', ԝ: 'w', ӏ: 'l', һ: 'h',
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
 * Maps each word's lookalike letters to the word's dominant script (Cyrillic or Latin). Words are the
 * runs of /[\p{L}\p{M}]+/u, found with the character table in one pass; only a word that changes is
 * copied (a replace() callback per word was the normalisation's largest cost on Cyrillic text).
 */
export function resolveThreatHomoglyphs(text: string): string {
  // Most prompts have neither: one scan instead of a per-word, per-letter script test.
  if (!MAY_CHANGE.test(text)) return text;
  // The text is read from, and changed words rewritten in, one copy of its code units (each lookalike
  // is one code unit for one), not concatenated: a text of one long mixed-script word made a rope of a
  // million pieces.
  const codes = codeUnitsOf(text);
  return resolveThreatHomoglyphCodes(codes, codes.length) ? stringOfCodeUnits(codes, text.length) : text;
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
const HOMOGLYPH = { word: 1, latin: 2, cyrillic: 4, greekLookalike: 8, surrogate: 16 } as const;

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
    classes[c] = cls;
  }
  return classes;
})();

/** resolveThreatHomoglyphs of the code units [0, length) of `codes`, in place; returns whether any changed. */
export function resolveThreatHomoglyphCodes(codes: Uint16Array, length: number): boolean {
  const wordFlags = THREAT_CHAR.letter | THREAT_CHAR.mark;
  const classes = HOMOGLYPH_CLASSES;
  let changed = false;
  let i = 0;
  while (i < length) {
    const start = i;
    let cyrillic = 0;
    let latin = 0;
    let greek = false;
    // The word's characters: letters and marks (/[\p{L}\p{M}]+/u), astral ones by the regex.
    while (i < length) {
      const cls = classes[codes[i]!]!;
      if ((cls & HOMOGLYPH.word) !== 0) {
        latin += (cls >> 1) & 1;
        cyrillic += (cls >> 2) & 1;
        if ((cls & HOMOGLYPH.greekLookalike) !== 0) greek = true;
        i++;
        continue;
      }
      if ((cls & HOMOGLYPH.surrogate) === 0 || threatCodesCharWidth(codes, length, i, wordFlags, LETTER_OR_MARK) === 0) break;
      const ch = String.fromCharCode(codes[i]!, codes[i + 1]!);
      if (CYRILLIC.test(ch)) cyrillic++;
      else if (LATIN.test(ch)) latin++;
      i += 2;
    }
    if (i === start) {
      i++;
      continue;
    }
    let table: Uint16Array | undefined;
    // Greek lookalikes inside an otherwise Latin word.
    if (cyrillic === 0 || latin === 0) table = latin > 0 && greek ? TO_LATIN : undefined;
    else table = cyrillic > latin ? TO_CYRILLIC : TO_LATIN;
    if (table === undefined) continue;
    changed = true;
    // Keys are BMP letters, so mapping code units maps the word's code points (surrogates stay).
    for (let j = start; j < i; j++) {
      const c = codes[j]!;
      codes[j] = (c < table.length ? table[c]! : 0) || c;
    }
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

/** NFKC, invisible characters removed; case and spacing kept (base64 blocks need their case). */
export function stripThreatInvisibles(text: string): string {
  return threatNfkc(text).replace(INVISIBLE, '');
}

/**
 * stripThreatInvisibles(text), and the same applied to that (what lowerThreatText starts with). The
 * second is the first unless an invisible character was removed: NFKC and the removal are each
 * idempotent, but a removed character may have kept apart two that NFKC now composes.
 */
export function stripThreatInvisiblesTwice(text: string): { once: string; twice: string } {
  const normalized = threatNfkc(text);
  const once = normalized.replace(INVISIBLE, '');
  return { once, twice: once.length === normalized.length ? once : stripThreatInvisibles(once) };
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
