// CREDIT_CARD: every payment card number (PAN) of 13 to 19 digits that passes the Luhn check, written
// together or in the groups cards are printed in (4-4-4-4, 4-4-4-4-3 for 19 digits, 4-6-5 for American
// Express, 4-6-4 for Diners, 4-4-5 and 4-3-3-3 for 13-digit Visa, 6-13 for UnionPay), the groups joined
// by one and the same space or dash. The spec's 16 digits are the common case, not a limit: a user of
// Presidio or a DLP product expects AmEx 15, Diners 14, Visa 13/19 and UnionPay 19 found too. A
// 16-digit number is a card by shape; any other length must also start with an issuer range that
// issues that length (card-issuers.ts), so a random long number passing Luhn is not taken for a card.
// A bare run of digits is also an order number, a timestamp or an account id, so it needs either a
// card word nearby or a first digit of a card issuer (2-6: Mir and Mastercard 2, Amex/JCB/Diners 3,
// Visa 4, Mastercard/Maestro 5, Discover/UnionPay/Maestro 6).
// Mask (spec): every digit but the last four replaced by "*", groups kept, whatever the length.
import type { PiiCandidate, PiiRule, PiiScanInput } from '../rule.js';
import { luhnValid } from '../checksums.js';
import { allSameDigit, isDigit } from '../text/chars.js';
import { Gap, groupLength } from '../text/digit-groups.js';
import { cardScheme, MAX_CARD_DIGITS, MIN_CARD_DIGITS } from './card-issuers.js';
import { standaloneNumber } from '../text/boundaries.js';
import { verdict } from '../text/keywords.js';
import { maskDigits } from '../text/mask-text.js';

const CARD_DIGITS = 16;

/** A number of this length that can be a card: 16 digits always, other lengths by issuer range. */
const cardLike = (digits: string) => digits.length === CARD_DIGITS || cardScheme(digits) !== undefined;

/** Printed layouts (digits per group) other than one run; each needs one separator throughout. */
const LAYOUTS: readonly (readonly number[])[] = [
  [4, 4, 4, 4],
  [4, 4, 4, 4, 3],
  [4, 4, 4, 4, 2],
  [4, 4, 4, 4, 1],
  [4, 6, 5],
  [4, 6, 4],
  [4, 4, 5],
  [4, 3, 3, 3],
  [6, 13],
];
const LONGEST_LAYOUT = Math.max(...LAYOUTS.map((l) => l.length));

function issuerDigit(digits: string): boolean {
  const first = digits.charCodeAt(0) - 48;
  return first >= 2 && first <= 6;
}

function scoreFor(input: PiiScanInput, start: number, digits: string, grouped: boolean): number {
  const context = verdict(input.contextBefore(start), 'CREDIT_CARD');
  if (context.own) return 0.98;
  if (grouped) return context.negative ? 0.5 : context.other ? 0.55 : 0.9;
  if (context.negative) return 0.1;
  if (context.other) return 0.35;
  return issuerDigit(digits) ? 0.8 : 0.4;
}

function accept(input: PiiScanInput, start: number, end: number, grouped: boolean, out: PiiCandidate[]): void {
  const { text } = input;
  let digits = '';
  for (let i = start; i < end; i++) if (isDigit(text.charCodeAt(i))) digits += text[i];
  if (!cardLike(digits) || allSameDigit(digits) || !luhnValid(digits)) return;
  if (!standaloneNumber(text, start, end)) return;
  out.push({ start, end, score: scoreFor(input, start, digits, grouped) });
}

/**
 * The groups after g joined to it by the same one-character separator, as group lengths (g's first),
 * at most one more than the longest layout so that a longer number is seen as such.
 */
function joinedRun(input: PiiScanInput, g: number): number[] {
  const index = input.digitGroups();
  const { text } = input;
  const gap = index.gaps[g];
  const lengths = [groupLength(index, g)];
  if (gap !== Gap.Space && gap !== Gap.Dash) return lengths;
  const sep = text[index.ends[g]!];
  for (let k = g + 1; k < index.count && lengths.length <= LONGEST_LAYOUT; k++) {
    lengths.push(groupLength(index, k));
    if (index.gaps[k] !== gap || text[index.ends[k]!] !== sep) break;
  }
  return lengths;
}

/** Whether group g - 1 is a group of four joined to g the way g is joined to g + 1 (a longer number). */
function continuesBefore(input: PiiScanInput, g: number): boolean {
  const index = input.digitGroups();
  if (g === 0) return false;
  const gap = index.gaps[g - 1];
  return gap === index.gaps[g] && input.text[index.ends[g - 1]!] === input.text[index.ends[g]!] && groupLength(index, g - 1) === 4;
}

function scanGroups(input: PiiScanInput, g: number, out: PiiCandidate[]): void {
  const index = input.digitGroups();
  const run = joinedRun(input, g);
  // More groups on one separator than any card has: a longer number (an account, a table of figures).
  if (run.length < 2 || run.length > LONGEST_LAYOUT || continuesBefore(input, g)) return;
  for (const layout of LAYOUTS) {
    if (run.length < layout.length || !layout.every((length, k) => run[k] === length)) continue;
    // A further group on the same separator makes it a longer number (an account), not a card.
    if (run.length > layout.length) continue;
    accept(input, index.starts[g]!, index.ends[g + layout.length - 1]!, true, out);
  }
}

export const creditCardRule: PiiRule = {
  type: 'CREDIT_CARD',
  scan(input) {
    const index = input.digitGroups();
    const out: PiiCandidate[] = [];
    for (let g = 0; g < index.count; g++) {
      const length = groupLength(index, g);
      if (length >= MIN_CARD_DIGITS && length <= MAX_CARD_DIGITS) accept(input, index.starts[g]!, index.ends[g]!, false, out);
      else if (length === 4 || length === 6) scanGroups(input, g, out);
    }
    return out;
  },
  mask: (value) => maskDigits(value, 4),
};
