// The digit groups of a text: maximal runs of ASCII digits, with a classification of the gap between each
// group and the next. Every numeric rule (card, INN, SNILS, passport, phone) reads windows of consecutive
// groups from this one index, so a text is walked once for all of them and a rule never splits a group.
import { isDash, isInlineSpace } from './chars.js';

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
  readonly starts: readonly number[];
  /** End offset (exclusive) of each group. */
  readonly ends: readonly number[];
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

/**
 * One linear pass over the text. The runs are found by the regex engine: /[0-9]+/ is a single class
 * run, matched without backtracking, and its native scan is faster than a charCodeAt loop.
 */
export function indexDigitGroups(text: string): DigitIndex {
  const starts: number[] = [];
  const ends: number[] = [];
  const runs = /[0-9]+/g;
  for (let m = runs.exec(text); m !== null; m = runs.exec(text)) {
    starts.push(m.index);
    ends.push(m.index + m[0].length);
  }
  const count = starts.length;
  const gaps = new Uint8Array(Math.max(0, count - 1));
  for (let g = 0; g + 1 < count; g++) gaps[g] = classifyGap(text, ends[g]!, starts[g + 1]!);
  return { count, starts, ends, gaps };
}

/** Digits in group g. */
export const groupLength = (index: DigitIndex, g: number): number => index.ends[g]! - index.starts[g]!;
