// Leetspeak ("1gn0r3") mapped back to letters, for the de-obfuscated view (deobfuscate.ts).
import { codeUnitsOf, int32View, newInt32List, pushInt32, stringOfCodeUnits } from '@palisade/core';
import { isThreatSurrogate, THREAT_CHAR, THREAT_CHAR_TABLE, threatCodesCharWidth } from './char-classes.js';
import { forEachThreatAddressAt } from './deobfuscate-address.js';

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
const AT = 0x40;
const NO_ADDRESSES: Int32Array = new Int32Array(0);
const leetLetter = (c: number): number => (c < 128 ? LEET_TO[c]! : c === EURO ? LEET['€']!.charCodeAt(0) : 0);
const isLeetCode = (c: number): boolean => leetLetter(c) !== 0;
const LEET_TOKEN_CHAR = /[\p{L}\p{N}]/u;
const LEET_TOKEN_FLAGS = THREAT_CHAR.letter | THREAT_CHAR.number;

// What the token scan asks of a BMP code unit, in one read: a leet character, another character of a
// token (a letter or number), or neither (a surrogate is neither: its pair is asked by the regex).
const TOKEN_LEET = 1;
const TOKEN_OTHER = 2;
const TOKEN_CLASS = ((): Uint8Array => {
  const table = new Uint8Array(0x10000);
  for (let c = 0; c < 0x10000; c++) {
    if (isLeetCode(c)) table[c] = TOKEN_LEET;
    else if (!isThreatSurrogate(c) && (THREAT_CHAR_TABLE[c]! & LEET_TOKEN_FLAGS) !== 0) table[c] = TOKEN_OTHER;
  }
  return table;
})();

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
 * returns true and returns whether one did. The `@` signs at `addressAts` (increasing) belong to
 * addresses: they end a token like any punctuation.
 */
function someLeetToken(
  codes: Uint16Array,
  length: number,
  min: number,
  max: number,
  addressAts: Int32Array,
  visit: (start: number, end: number) => boolean,
): boolean {
  const classes = TOKEN_CLASS;
  let nextAddress = 0;
  let i = 0;
  while (i < length) {
    // Most tokens of a text hold no leet character: the scan jumps to the next leet character, then
    // back to the separator before its token (a BMP code unit of no token class ends every token, so
    // the scan from after it finds the tokens a scan from `i` would), and reads on from there. Each
    // code unit is read at most three times.
    if (classes[codes[i]!] !== TOKEN_LEET) {
      let next = i + 1;
      while (next < length && classes[codes[next]!] !== TOKEN_LEET) next++;
      if (next === length) return false;
      let from = next;
      while (from > i && (classes[codes[from - 1]!] !== 0 || isThreatSurrogate(codes[from - 1]!))) from--;
      i = from;
    }
    const start = i;
    let leet = false;
    while (i < length) {
      const c = codes[i]!;
      const kind = classes[c]!;
      let width: number;
      if (kind === TOKEN_LEET) {
        if (c === AT && addressAts.length > nextAddress) {
          while (nextAddress < addressAts.length && addressAts[nextAddress]! < i) nextAddress++;
          if (addressAts[nextAddress] === i) break;
        }
        leet = true;
        width = 1;
      } else if (kind === TOKEN_OTHER) width = 1;
      else width = isThreatSurrogate(c) ? threatCodesCharWidth(codes, length, i, LEET_TOKEN_FLAGS, LEET_TOKEN_CHAR) : 0;
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
 * "gpt-4", "mp3", "win10") are left as they are, and so is the `@` of an address (`john@example.com`,
 * `postgres://u:p@db`; deobfuscate-address.ts), which ends a token. Returns the text and how many
 * tokens changed.
 */
export function undoThreatLeetspeak(text: string): { text: string; count: number } {
  if (!HAS_LEET.test(text)) return { text, count: 0 };
  const codes = codeUnitsOf(text);
  const count = undoThreatLeetspeakCodes(codes, text.length);
  return count === 0 ? { text, count } : { text: stringOfCodeUnits(codes, text.length), count };
}

/** undoThreatLeetspeak of the code units [0, length) of `codes`, in place; returns the count. */
export function undoThreatLeetspeakCodes(codes: Uint16Array, length: number): number {
  // Long tokens are identifiers, hashes or base64, not words written in leetspeak: the test takes
  // tokens of at most 16 code units, the mapping at most 16 code points, as the regexes they replaced
  // did. A leetspeak token has two letters and a leet character, a mapped one a letter and a leet
  // character, so shorter tokens are not counted.
  const classes = TOKEN_CLASS;
  let leet = false;
  let at = false;
  for (let i = 0; i < length; i++) {
    if (classes[codes[i]!] !== TOKEN_LEET) continue;
    leet = true;
    if (codes[i] === AT) {
      at = true;
      break;
    }
  }
  if (!leet) return 0;
  // The `@` of an e-mail address or a URL's userinfo is punctuation, not an `a`.
  let addressAts = NO_ADDRESSES;
  if (at) {
    const found = newInt32List();
    forEachThreatAddressAt(codes, length, (i) => pushInt32(found, i));
    addressAts = int32View(found);
  }
  const isLeetspeak = (start: number, end: number): boolean => {
    const c = leetCounts(codes, length, start, end);
    return field(c, LETTERS) >= 2 && (field(c, FLANKED) > 0 || field(c, TOUCHING) >= 2);
  };
  if (!someLeetToken(codes, length, 3, MAX_LEET_WORD, addressAts, isLeetspeak)) return 0;
  // The mapped tokens are rewritten in the code units (leet characters map one code unit to one), not
  // by a replace() callback per token (see stringOfCodeUnits); a token is counted before it is
  // rewritten, and the scan goes on after it.
  let count = 0;
  // More than 32 code units are more than 16 code points.
  someLeetToken(codes, length, 2, MAX_COUNTED_UNITS, addressAts, (start, end) => {
    const c = leetCounts(codes, length, start, end);
    if (field(c, POINTS) > MAX_LEET_WORD || field(c, LETTERS) === 0 || field(c, TOUCHING) === 0) return false;
    count++;
    for (let j = start; j < end; j++) codes[j] = leetLetter(codes[j]!) || codes[j]!;
    return false;
  });
  return count;
}

