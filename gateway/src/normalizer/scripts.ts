// Per-word resolution to the dominant script (spec, "Gateway pipeline": homoglyph normalization,
// step 3): in a word that mixes Latin and Cyrillic letters, the letters of one script that have a
// look-alike in the other (confusables.ts) are rewritten so the word reads in one script — "gооgle"
// with Cyrillic о becomes "google", "прoсто" with Latin o becomes "просто".
//
// Which script a mixed word resolves to:
// 1. the only script the whole word can be written in with look-alikes ("раураl": every Cyrillic letter
//    has a Latin twin, the Latin l has no Cyrillic one → Latin, though most of its letters are Cyrillic);
// 2. otherwise (both or neither) the script of most of its letters;
// 3. on a tie, the script of most letters of the whole text; a tie there too leaves the word alone.
// Letters without a look-alike stay as they are (a word can stay mixed); digits, marks and letters of
// other scripts are neither counted nor changed. Every replacement is one code unit for one, so
// positions do not move.
import { codeUnitsOf, stringOfCodeUnits } from '@palisade/core';
import { CONFUSABLE_MAPS, CONFUSABLE_TABLE_SIZE } from './confusables.js';

const HAS_CYRILLIC = /[\u0400-\u052F\u1C80-\u1C8F\uA640-\uA69F]/;
const HAS_LATIN = /[A-Za-z\u00C0-\u024F\u1E00-\u1EFF]/;
/** Word characters outside the ranges classified by code below (sticky: tested at one position). */
const OTHER_WORD_CHAR = /[\p{L}\p{M}\p{N}]/uy;

const isAsciiWordChar = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39);

function isLatinLetter(c: number): boolean {
  if (c < 0x80) return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
  return (
    (c >= 0xc0 && c <= 0x24f && c !== 0xd7 && c !== 0xf7) ||
    (c >= 0x1e00 && c <= 0x1eff) ||
    (c >= 0x2c60 && c <= 0x2c7f) ||
    (c >= 0xa720 && c <= 0xa7ff)
  );
}

function isCyrillicLetter(c: number): boolean {
  return (
    (c >= 0x400 && c <= 0x52f && !(c >= 0x482 && c <= 0x489)) ||
    (c >= 0x1c80 && c <= 0x1c8f) ||
    (c >= 0xa640 && c <= 0xa66e) ||
    (c >= 0xa680 && c <= 0xa69d)
  );
}

/** Length (1 or 2 code units) of the word character at i, or 0 when it is not one. */
function wordCharLength(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 0x80) return isAsciiWordChar(c) ? 1 : 0;
  if (isLatinLetter(c) || isCyrillicLetter(c) || (c >= 0x300 && c <= 0x36f)) return 1;
  OTHER_WORD_CHAR.lastIndex = i;
  if (!OTHER_WORD_CHAR.test(text)) return 0;
  return c >= 0xd800 && c <= 0xdbff ? 2 : 1;
}

type Script = 'latin' | 'cyrillic';

/** Latin minus Cyrillic letters of the whole text: the tie-breaker of rule 3. */
function textBalance(text: string): number {
  let balance = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isLatinLetter(c)) balance++;
    else if (isCyrillicLetter(c)) balance--;
  }
  return balance;
}

/** Returns the text with every mixed Latin/Cyrillic word resolved; the same string when nothing changed. */
export function resolveMixedScripts(text: string): string {
  if (!HAS_CYRILLIC.test(text) || !HAS_LATIN.test(text)) return text;
  const { toLatin, toCyrillic } = CONFUSABLE_MAPS;
  const has = (table: Readonly<Uint16Array>, c: number) => c < CONFUSABLE_TABLE_SIZE && table[c] !== 0;
  let codes: Uint16Array | undefined;
  let balance: number | undefined;
  const n = text.length;
  let i = 0;
  while (i < n) {
    let len = wordCharLength(text, i);
    if (len === 0) {
      i++;
      continue;
    }
    const start = i;
    let latin = 0;
    let cyrillic = 0;
    let cyrillicAllMappable = true;
    let latinAllMappable = true;
    while (len > 0) {
      const c = text.charCodeAt(i);
      if (isLatinLetter(c)) {
        latin++;
        if (latinAllMappable && !has(toCyrillic, c)) latinAllMappable = false;
      } else if (isCyrillicLetter(c)) {
        cyrillic++;
        if (cyrillicAllMappable && !has(toLatin, c)) cyrillicAllMappable = false;
      }
      i += len;
      len = i < n ? wordCharLength(text, i) : 0;
    }
    if (latin === 0 || cyrillic === 0) continue;

    let target: Script | undefined;
    if (cyrillicAllMappable !== latinAllMappable) target = cyrillicAllMappable ? 'latin' : 'cyrillic';
    else if (latin !== cyrillic) target = latin > cyrillic ? 'latin' : 'cyrillic';
    else {
      balance ??= textBalance(text);
      if (balance !== 0) target = balance > 0 ? 'latin' : 'cyrillic';
    }
    if (!target) continue;
    const map = target === 'latin' ? toLatin : toCyrillic;
    for (let k = start; k < i; k++) {
      const c = text.charCodeAt(k);
      if (!has(map, c)) continue;
      codes ??= codeUnitsOf(text);
      codes[k] = map[c]!;
    }
  }
  return codes ? stringOfCodeUnits(codes, n) : text;
}
