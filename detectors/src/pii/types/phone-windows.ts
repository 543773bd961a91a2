// The candidate windows of PHONE_NUMBER (phone.ts): runs of digit groups joined by spaces, dashes,
// dots or brackets on one line, with a digit count and a grouping a phone number can have.
import { Gap, type DigitIndex } from '../text/digit-groups.js';

/** E.164 allows 15 digits at most; no country's numbers are shorter than 7 with the country code. */
export const MAX_DIGITS = 15;
export const MIN_INTERNATIONAL = 8;
export const MIN_NATIONAL = 9;
export const MAX_NATIONAL = 12;
/** "+33 1 23 45 67 89" has six groups; more groups are something else (a list of numbers). */
const MAX_GROUPS = 6;

/**
 * Groupings of national numbers written without "+" or trunk prefix that are worth asking
 * libphonenumber about (group lengths, e.g. "415-555-2671" is 3-3-4). Dates ("2024-01-15 10"), IP
 * addresses and versions have other shapes and cost no library call. With a phone word near, any
 * grouping is asked.
 */
export const NATIONAL_SHAPES = new Set([
  '3-3-4', '3-3-2-2', '3-7', '3-3-3', '2-4-4', '3-4-4', '4-3-4', '4-3-3', '5-6', '5-5', '3-8', '4-7', '4-6', '2-2-2-2-2', '2-3-2-2', '2-8', '3-2-2-2',
]);

export interface PhoneWindow {
  start: number;
  end: number;
  lastGroup: number;
  digits: string;
  /** Digit counts at the breaks between groups. */
  breaks: number[];
  /** Group lengths joined by "-" ("3-3-4"). */
  shape: string;
  groups: number;
}

const NO_WINDOWS: readonly PhoneWindow[] = [];

/** Group lengths packed into a number (4 bits each), so the first pass builds no strings. */
const shapeCode = (code: number, length: number) => code * 16 + Math.min(length, 15);
const NATIONAL_SHAPE_CODES = new Set([...NATIONAL_SHAPES].map((shape) => shape.split('-').reduce((code, length) => shapeCode(code, Number(length)), 0)));

/** Whether a window may end at group j: where the chain ends or at a space, and not before a pair of
 * digits that carries the number on ("+7 999 999 99 99 99 99" is no phone), nor inside "2024-01-15". */
function endsWindow(index: DigitIndex, j: number): boolean {
  const next = j + 1 < index.count ? index.gaps[j]! : Gap.Other;
  if (next === Gap.Other) return true;
  return next === Gap.Space && index.ends[j + 1]! - index.starts[j + 1]! !== 2;
}

/**
 * Facts of each group, computed once per text: the digits of all groups before it, and the first group
 * at or after it where a window may end. With them a start that cannot reach a phone's digit count, or
 * has no place to end within reach, is dismissed without walking its chain: runs of short groups
 * ("7 7 7 …", "00 41 00 41 …") otherwise cost a walk of six groups, with its checks, per group.
 */
export interface ChainFacts {
  digitsBefore: Int32Array;
  nextEnding: Int32Array;
}

export function chainFacts(index: DigitIndex): ChainFacts {
  const { starts, ends, count } = index;
  const digitsBefore = new Int32Array(count + 1);
  for (let g = 0; g < count; g++) digitsBefore[g + 1] = digitsBefore[g]! + ends[g]! - starts[g]!;
  const nextEnding = new Int32Array(count);
  let next = count;
  for (let j = count - 1; j >= 0; j--) {
    if (endsWindow(index, j)) next = j;
    nextEnding[j] = next;
  }
  return { digitsBefore, nextEnding };
}

/** The "(0)" of "+41 (0)44 …": a trunk prefix dialled only at home, not part of the number. */
function isTrunkZero(text: string, index: DigitIndex, g: number, j: number): boolean {
  const start = index.starts[j]!;
  return j > g && j < g + 3 && index.ends[j]! - start === 1 && text.charCodeAt(start) === 48 && text.charCodeAt(start - 1) === 40 && text.charCodeAt(index.ends[j]!) === 41;
}

/**
 * The windows starting at group g, longest first: up to six groups joined by phone punctuation with a
 * digit count a phone can have. A first pass only counts, so chains of short groups ("1 1 1 1…") cost
 * no allocation at all.
 */
export function phoneWindowsAt(text: string, index: DigitIndex, facts: ChainFacts, g: number, spanStart: number, plus: boolean, exitDigits = 0): readonly PhoneWindow[] {
  const { starts, ends, gaps } = index;
  const maxDigits = (plus ? MAX_DIGITS : MAX_NATIONAL) + exitDigits;
  const minDigits = plus ? MIN_INTERNATIONAL : MIN_NATIONAL;
  // At most MAX_GROUPS groups, plus a skipped trunk zero: beyond that no window can reach.
  const reach = Math.min(g + MAX_GROUPS + 1, index.count);
  if (facts.digitsBefore[reach]! - facts.digitsBefore[g]! < minDigits || facts.nextEnding[g]! >= reach) return NO_WINDOWS;
  let skipped = -1;
  let count = 0;
  let dots = false;
  let others = false;
  let code = 0;
  let endings: number[] | undefined;
  const trunkDigit = text.charCodeAt(starts[g]!);
  const trunk = !plus && (trunkDigit === 55 || trunkDigit === 56); /* 7 or 8 */
  for (let j = g; j < starts.length && j - g < MAX_GROUPS + (skipped === -1 ? 0 : 1); j++) {
    if (j > g) {
      const gap = gaps[j - 1]!;
      if (gap === Gap.Other) break;
      if (gap === Gap.Dot) dots = true;
      else others = true;
      // Dots join phone groups only when every join is a dot ("415.555.2671").
      if (dots && others) break;
    }
    if (skipped === -1 && plus && isTrunkZero(text, index, g, j)) {
      skipped = j;
      continue;
    }
    count += ends[j]! - starts[j]!;
    code = shapeCode(code, ends[j]! - starts[j]!);
    if (count > maxDigits) break;
    if (count < minDigits) continue;
    // Without "+", only the forms judgePhone() (phone-judge.ts) can accept are worth building: a trunk-prefixed number of 11
    // digits, one run of digits, or a national grouping ("4111 4111 4111" is none of them).
    if (!plus && !(trunk && count === 11) && j > g && !NATIONAL_SHAPE_CODES.has(code)) continue;
    // A window ends only where endsWindow allows: the group is its own next ending.
    if (facts.nextEnding[j] === j) (endings ??= []).push(j);
  }
  if (!endings) return NO_WINDOWS;
  const windows: PhoneWindow[] = [];
  for (let e = endings.length - 1; e >= 0; e--) {
    const last = endings[e]!;
    let digits = '';
    const breaks: number[] = [];
    const lengths: number[] = [];
    for (let j = g; j <= last; j++) {
      if (j === skipped) continue;
      if (j > g) breaks.push(digits.length);
      digits += text.slice(starts[j]!, ends[j]!);
      lengths.push(ends[j]! - starts[j]!);
    }
    windows.push({ start: spanStart, end: ends[last]!, lastGroup: last, digits, breaks, groups: lengths.length, shape: lengths.join('-') });
  }
  return windows;
}

