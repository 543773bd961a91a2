// The digit groups of a text: maximal runs of ASCII digits, with a classification of the gap between each
// group and the next. Every numeric rule (card, INN, SNILS, passport, phone) reads windows of consecutive
// groups from this one index, so a text is walked once for all of them and a rule never splits a group.
import { int32View, newInt32List, pushInt32 } from '@palisade/core';
import { isDash, isDigit, isInlineSpace } from './chars.js';

/** How two neighbouring groups are joined (a plain object, not a const enum, so transpilers agree). */
export const Gap = {
  /** Anything that ends a number: letters, commas, line breaks, long gaps. */
  Other: 0,
  /** One space-like character. */
  Space: 1,
  /** One dash-like character. */
  Dash: 2,
  /** One dot. */
  Dot: 3,
  /** Two or three characters from spaces, dashes and brackets (") ", " (", " - ", ")-"), or one bracket. */
  Phone: 4,
} as const;
export type Gap = (typeof Gap)[keyof typeof Gap];

export interface DigitIndex {
  /** Number of groups. */
  readonly count: number;
  /** Start offset of each group. */
  readonly starts: Int32Array;
  /** End offset (exclusive) of each group. */
  readonly ends: Int32Array;
  /** gaps[i] joins group i and group i + 1. */
  readonly gaps: Uint8Array;
}

const isBracket = (c: number) => c === 40 || c === 41;

function classifyGap(text: string, from: number, to: number): Gap {
  const length = to - from;
  if (length === 1) {
    const c = text.charCodeAt(from);
    if (isInlineSpace(c)) return Gap.Space;
    if (isDash(c)) return Gap.Dash;
    if (c === 46) return Gap.Dot;
    if (isBracket(c)) return Gap.Phone;
    return Gap.Other;
  }
  if (length > 3) return Gap.Other;
  let brackets = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (isBracket(c)) brackets++;
    else if (!isInlineSpace(c) && !isDash(c)) return Gap.Other;
  }
  // " - " and ") " read as phone punctuation; "  " (two spaces) or "--" do not join numbers.
  return brackets > 0 || (length === 3 && isDash(text.charCodeAt(from + 1))) ? Gap.Phone : Gap.Other;
}

/** After this many code units without a digit, the regex engine's scan finds the next one. */
const SCAN_BY_HAND = 16;

/**
 * One linear pass over the text, into typed arrays: a text of many short groups made a regex match
 * object and two array pushes per group, most of the PII detector's time on digit-dense input. Between
 * groups the loop reads a few code units itself (digit-dense text never leaves it), then lets the
 * regex engine jump to the next digit with test(), which allocates nothing: reading every code unit of
 * prose in JavaScript cost 2 to 3 ns each.
 */
export function indexDigitGroups(text: string): DigitIndex {
  const groupStarts = newInt32List();
  const groupEnds = newInt32List();
  const length = text.length;
  const nextDigit = /[0-9]/g;
  let i = 0;
  while (i < length) {
    const byHand = Math.min(length, i + SCAN_BY_HAND);
    while (i < byHand && !isDigit(text.charCodeAt(i))) i++;
    if (i === byHand) {
      if (i === length) break;
      nextDigit.lastIndex = i;
      if (!nextDigit.test(text)) break;
      i = nextDigit.lastIndex - 1;
    }
    pushInt32(groupStarts, i);
    while (i + 1 < length && isDigit(text.charCodeAt(i + 1))) i++;
    pushInt32(groupEnds, i + 1);
    i++;
  }
  const starts = int32View(groupStarts);
  const ends = int32View(groupEnds);
  const count = starts.length;
  const gaps = new Uint8Array(Math.max(0, count - 1));
  for (let g = 0; g + 1 < count; g++) gaps[g] = classifyGap(text, ends[g]!, starts[g + 1]!);
  return { count, starts, ends, gaps };
}

/** Digits in group g. */
export const groupLength = (index: DigitIndex, g: number): number => index.ends[g]! - index.starts[g]!;
