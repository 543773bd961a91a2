// Character-level masks shared by the rules. They keep the length and the punctuation of the value, so a
// masked card still reads as a card ("**** **** **** 1111").
import { isDigit } from './chars.js';

export const MASK_CHAR = '*';

/** Every digit but the last `keepLast` replaced by "*"; other characters kept. */
export function maskDigits(value: string, keepLast = 0): string {
  let total = 0;
  for (let i = 0; i < value.length; i++) if (isDigit(value.charCodeAt(i))) total++;
  let seen = 0;
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]!;
    if (isDigit(value.charCodeAt(i))) {
      seen++;
      out += seen > total - keepLast ? ch : MASK_CHAR;
    } else out += ch;
  }
  return out;
}

/** The first `keep` characters kept, every other one replaced by "*". */
export function maskAfter(value: string, keep: number): string {
  const kept = Math.min(Math.max(keep, 0), value.length);
  return value.slice(0, kept) + MASK_CHAR.repeat(value.length - kept);
}
