// The detector's own cheap normalisation. The gateway's normalizer already did NFKC, zero-width removal
// and homoglyph resolution, but the service can be called directly, and the model was trained on text
// normalised exactly this way, so it is applied to every input (idempotent on normalised text).
import { isThreatSurrogate, THREAT_CHAR, THREAT_CHAR_TABLE, threatCharWidth } from './char-classes.js';

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
  const wordFlags = THREAT_CHAR.letter | THREAT_CHAR.mark;
  const widthAt = (i: number): number => {
    // Past the end: no read outside the table (an out-of-bounds typed-array read deoptimises the loop).
    if (i >= text.length) return 0;
    const c = text.charCodeAt(i);
    return isThreatSurrogate(c) ? threatCharWidth(text, i, wordFlags, LETTER_OR_MARK) : (THREAT_CHAR_TABLE[c]! & wordFlags) !== 0 ? 1 : 0;
  };
  let out = '';
  let copied = 0;
  let i = 0;
  while (i < text.length) {
    let width = widthAt(i);
    if (width === 0) {
      i++;
      continue;
    }
    const start = i;
    let cyrillic = 0;
    let latin = 0;
    let greek = false;
    do {
      const c = text.charCodeAt(i);
      // The common blocks by code; the rest by their Unicode script.
      if (c < 0x80) {
        if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) latin++;
      } else if (c >= 0x400 && c <= 0x52f && c !== 0x485 && c !== 0x486) cyrillic++; // 0485-0486: Inherited marks
      else if (width === 1) {
        const flags = THREAT_CHAR_TABLE[c]!;
        if ((flags & THREAT_CHAR.cyrillic) !== 0) cyrillic++;
        else if ((flags & THREAT_CHAR.latin) !== 0) latin++;
        if (GREEK_LOOKALIKES.has(c)) greek = true;
      } else {
        const ch = String.fromCodePoint(text.codePointAt(i)!);
        if (CYRILLIC.test(ch)) cyrillic++;
        else if (LATIN.test(ch)) latin++;
      }
      i += width;
      width = widthAt(i);
    } while (width > 0);
    let table: Readonly<Record<string, string>> | undefined;
    // Greek lookalikes inside an otherwise Latin word.
    if (cyrillic === 0 || latin === 0) table = latin > 0 && greek ? CYRILLIC_TO_LATIN : undefined;
    else table = cyrillic > latin ? LATIN_TO_CYRILLIC : CYRILLIC_TO_LATIN;
    if (table === undefined) continue;
    out += text.slice(copied, start) + mapChars(text.slice(start, i), table);
    copied = i;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

function mapChars(word: string, table: Readonly<Record<string, string>>): string {
  let out = '';
  for (const ch of word) out += table[ch] ?? ch;
  return out;
}

/** NFKC, invisible characters removed; case and spacing kept (base64 blocks need their case). */
export function stripThreatInvisibles(text: string): string {
  return text.normalize('NFKC').replace(INVISIBLE, '');
}

/** Whitespace runs (including newlines) to one space, trimmed. */
export function collapseThreatWhitespace(text: string): string {
  // Most text has only single spaces inside: then the result is the text without its ends, found in
  // one table scan instead of a replace() that copies it.
  const isSpace = (i: number): boolean => (THREAT_CHAR_TABLE[text.charCodeAt(i)]! & THREAT_CHAR.space) !== 0;
  let start = 0;
  let end = text.length;
  while (start < end && isSpace(start)) start++;
  while (end > start && isSpace(end - 1)) end--;
  for (let i = start; i < end; i++) {
    if (isSpace(i) && (text.charCodeAt(i) !== 0x20 || isSpace(i + 1))) return text.replace(/\s+/gu, ' ').trim();
  }
  return start === 0 && end === text.length ? text : text.slice(start, end);
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
