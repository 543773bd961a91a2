// Whether a run of digits stands on its own as a number, or is a piece of something else: a hash, a
// UUID, a decimal fraction, a version or IP address, or a longer number with a leading "+". Digits glued
// to a word ("ИНН7707083893", "inn7707083893", "7707083893руб") stand on their own; digits glued to a token
// that mixes letters and digits ("a3f9…7707083893…") do not.
import { isDash, isDigit, isHexDigit, isLetter } from './chars.js';

/** A word glued to a number is a label ("ИНН", "tel"), never longer than this. */
const MAX_GLUED_WORD = 24;

/** Letters glued before `start`: true when they form a word that a non-digit precedes. */
function gluedWordBefore(text: string, start: number): boolean {
  let i = start - 1;
  let count = 0;
  while (i >= 0 && isLetter(text.charCodeAt(i))) {
    i--;
    if (++count > MAX_GLUED_WORD) return false;
  }
  return i < 0 || !isDigit(text.charCodeAt(i));
}

function gluedWordAfter(text: string, end: number): boolean {
  let i = end;
  let count = 0;
  while (i < text.length && isLetter(text.charCodeAt(i))) {
    i++;
    if (++count > MAX_GLUED_WORD) return false;
  }
  return i >= text.length || !isDigit(text.charCodeAt(i));
}

/** True when [start, end) lies inside a UUID (8-4-4-4-12 hex groups joined by dashes). */
export function insideUuid(text: string, start: number, end: number): boolean {
  let from = start;
  let to = end;
  // A UUID is 36 characters, so looking 36 either way is enough to see all of it.
  while (from > 0 && start - from < 36) {
    const c = text.charCodeAt(from - 1);
    if (!isHexDigit(c) && c !== 45) break;
    from--;
  }
  while (to < text.length && to - end < 36) {
    const c = text.charCodeAt(to);
    if (!isHexDigit(c) && c !== 45) break;
    to++;
  }
  const parts = text.slice(from, to).split('-');
  const shape = [8, 4, 4, 4, 12];
  for (let p = 0; p + 5 <= parts.length; p++) {
    if (shape.every((length, k) => parts[p + k]!.length === length)) return true;
  }
  return false;
}

export interface StandaloneOptions {
  /** Phones start with "+"; other numbers preceded by "+" are a piece of a phone. */
  allowPlus?: boolean;
}

/** The checks shared by every numeric rule on the characters around a candidate [start, end). */
export function standaloneNumber(text: string, start: number, end: number, options: StandaloneOptions = {}): boolean {
  if (start > 0) {
    const c = text.charCodeAt(start - 1);
    if (isLetter(c)) {
      if (!gluedWordBefore(text, start)) return false;
    } else if (c === 46 /* . */ || c === 44 /* , */) {
      // "3.7707083893" or "1,7707083893": a fraction, a version or an IP address.
      if (start > 1 && isDigit(text.charCodeAt(start - 2))) return false;
    } else if (c === 43 /* + */) {
      if (!options.allowPlus) return false;
    } else if (isDash(c) && insideUuid(text, start, end)) {
      return false;
    }
  }
  if (end < text.length) {
    const c = text.charCodeAt(end);
    if (isLetter(c)) {
      if (!gluedWordAfter(text, end)) return false;
    } else if (c === 46 || c === 44) {
      // "7707083893.5", "7707083893,50", "10.0.0.1": the number goes on after the separator.
      if (end + 1 < text.length && isDigit(text.charCodeAt(end + 1))) return false;
    } else if (isDash(c) && insideUuid(text, start, end)) {
      return false;
    }
  }
  return true;
}
