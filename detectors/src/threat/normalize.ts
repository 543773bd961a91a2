// The detector's own cheap normalisation. The gateway's normalizer already did NFKC, zero-width removal
// and homoglyph resolution, but the service can be called directly, and the model was trained on text
// normalised exactly this way, so it is applied to every input (idempotent on normalised text).

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
const WORD = /[\p{L}\p{M}]+/gu;
/** A word can change only if the text has a Cyrillic letter or a Greek lookalike. */
const MAY_CHANGE = /[\p{Script=Cyrillic}αοεικνρτυχ]/u;

/** Maps each word's lookalike letters to the word's dominant script (Cyrillic or Latin). */
export function resolveThreatHomoglyphs(text: string): string {
  // Most prompts have neither: one scan instead of a per-word, per-letter script test.
  if (!MAY_CHANGE.test(text)) return text;
  return text.replace(WORD, (word) => {
    let cyrillic = 0;
    let latin = 0;
    for (let i = 0; i < word.length; i++) {
      const c = word.charCodeAt(i);
      // The common blocks by code; the rest (and surrogate pairs) by the Unicode script tests.
      if (c < 0x80) {
        if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) latin++;
      } else if (c >= 0x400 && c <= 0x52f && c !== 0x485 && c !== 0x486) cyrillic++; // 0485-0486: Inherited marks
      else {
        const ch = String.fromCodePoint(word.codePointAt(i)!);
        if (ch.length === 2) i++;
        if (CYRILLIC.test(ch)) cyrillic++;
        else if (LATIN.test(ch)) latin++;
      }
    }
    if (cyrillic === 0 || latin === 0) {
      // Greek lookalikes inside an otherwise Latin word.
      return latin > 0 && /[αοεικνρτυχ]/u.test(word) ? mapChars(word, CYRILLIC_TO_LATIN) : word;
    }
    return cyrillic > latin ? mapChars(word, LATIN_TO_CYRILLIC) : mapChars(word, CYRILLIC_TO_LATIN);
  });
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
  return text.replace(/\s+/gu, ' ').trim();
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
