// Character classes of the hand-written scanners, on UTF-16 code units (charCodeAt).
import { THREAT_CHAR, THREAT_CHAR_TABLE } from '../../threat/char-classes.js';

/** Any letter beyond the BMP table (a code point, not a code unit). Not global: `test` keeps no state. */
const OTHER_LETTER = /\p{L}/u;

/** Class bits of the ASCII characters, looked up in the hot loops; filled once here, never written after. */
const DIGIT = 1;
const LETTER = 2;
const TOKEN = 4;
const HEX = 8;
const ASCII = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const digit = c >= 48 && c <= 57;
  const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  const hex = digit || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
  ASCII[c] = (digit ? DIGIT : 0) | (letter ? LETTER : 0) | (digit || letter || c === 95 || c === 45 ? TOKEN : 0) | (hex ? HEX : 0);
}

export const isDigit = (c: number): boolean => c >= 48 && c <= 57;

export const isAsciiLetter = (c: number): boolean => c < 128 && (ASCII[c]! & LETTER) !== 0;

export const isCyrillic = (c: number): boolean => c >= 0x400 && c <= 0x4ff;

/**
 * A letter of any script. Read from the detectors' one table of BMP character classes (built once from
 * the Unicode property regexes): a regex test per character made German or French prose several times
 * slower to scan than English. The whole Cyrillic block counts as letters.
 */
export function isLetter(c: number): boolean {
  if (c < 128) return isAsciiLetter(c);
  if (isCyrillic(c)) return true;
  if (c < 0xaa) return false;
  if (c < 0x10000) return (THREAT_CHAR_TABLE[c]! & THREAT_CHAR.letter) !== 0;
  return OTHER_LETTER.test(String.fromCodePoint(c));
}

export const isAsciiAlnum = (c: number): boolean => c < 128 && (ASCII[c]! & (DIGIT | LETTER)) !== 0;

/** An upper-case ASCII letter's lower-case code; any other code unit as it is. */
export const toAsciiLower = (c: number): number => (c >= 65 && c <= 90 ? c + 32 : c);

/** Letters or digits of any script. */
export const isWordChar = (c: number): boolean => isDigit(c) || isLetter(c);

/** Characters of vendor tokens and base64url: [A-Za-z0-9_-]. */
export const isTokenChar = (c: number): boolean => c < 128 && (ASCII[c]! & TOKEN) !== 0;

export const isHexDigit = (c: number): boolean => c < 128 && (ASCII[c]! & HEX) !== 0;

/** Spaces that separate digit groups inside one line: space, no-break space, thin and narrow spaces. */
export const isInlineSpace = (c: number): boolean => c === 32 || c === 0xa0 || c === 0x2009 || c === 0x202f || c === 0x2007;

/** Hyphen-minus and the Unicode dashes people type in numbers. */
export const isDash = (c: number): boolean => c === 45 || (c >= 0x2010 && c <= 0x2014) || c === 0x2212;

/** The digits of a string, in order ("+7 (916) 123-45-67" → "79161234567"). */
export function digitsOf(value: string): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (isDigit(c)) out += value[i];
  }
  return out;
}

/** True when every digit is the same one ("0000 0000 0000 0000"): placeholders, never real numbers. */
export function allSameDigit(digits: string): boolean {
  for (let i = 1; i < digits.length; i++) if (digits[i] !== digits[0]) return false;
  return true;
}
