// CREDIT_CARD: 16 digits, written together or in four groups of four joined by one and the same space
// or dash, passing the Luhn check. Four groups of four are how cards are printed and typed, so that
// form is enough. A bare run of 16 digits is also an order number, a timestamp in microseconds or an
// account id, so it needs either a card word nearby or a first digit of a card issuer (2-6: Mir and
// Mastercard 2, Amex/JCB/Diners 3, Visa 4, Mastercard/Maestro 5, Discover/UnionPay/Maestro 6).
// Beyond the spec's 16 digits, American Express numbers (15 digits starting 34 or 37, printed 4-6-5) are
// cards too: a user of Presidio or a DLP product expects them found, and the prefix plus Luhn make a
// random 15-digit number match one time in five hundred.
// Mask (spec): every digit but the last four replaced by "*", groups kept.
import type { PiiCandidate, PiiRule, PiiScanInput } from '../rule.js';
import { luhnValid } from '../checksums.js';
import { allSameDigit, isDigit } from '../text/chars.js';
import { Gap, groupLength } from '../text/digit-groups.js';
import { standaloneNumber } from '../text/boundaries.js';
import { verdict } from '../text/keywords.js';
import { maskDigits } from '../text/mask-text.js';

const CARD_DIGITS = 16;
const AMEX_DIGITS = 15;
const isAmex = (digits: string) => digits.length === AMEX_DIGITS && (digits.startsWith('34') || digits.startsWith('37'));

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
  if ((digits.length !== CARD_DIGITS && !isAmex(digits)) || allSameDigit(digits) || !luhnValid(digits)) return;
  if (!standaloneNumber(text, start, end)) return;
  out.push({ start, end, score: scoreFor(input, start, digits, grouped) });
}

export const creditCardRule: PiiRule = {
  type: 'CREDIT_CARD',
  scan(input) {
    const { text } = input;
    const index = input.digitGroups();
    const { starts, ends, gaps } = index;
    const out: PiiCandidate[] = [];
    for (let g = 0; g < starts.length; g++) {
      const length = groupLength(index, g);
      if (length === CARD_DIGITS || length === AMEX_DIGITS) {
        accept(input, starts[g]!, ends[g]!, false, out);
        continue;
      }
      if (length !== 4) continue;
      // American Express: 4-6-5 with one and the same separator.
      if (g + 2 < starts.length && groupLength(index, g + 1) === 6 && groupLength(index, g + 2) === 5) {
        const gap = gaps[g]!;
        if ((gap === Gap.Space || gap === Gap.Dash) && gaps[g + 1] === gap && text[ends[g]!] === text[ends[g + 1]!]) {
          accept(input, starts[g]!, ends[g + 2]!, true, out);
          continue;
        }
      }
      if (g + 3 >= starts.length) continue;
      const gap = gaps[g]!;
      if (gap !== Gap.Space && gap !== Gap.Dash) continue;
      const sep = text[ends[g]!];
      let grouped = true;
      for (let k = 1; k <= 3 && grouped; k++) {
        if (groupLength(index, g + k) !== 4) grouped = false;
        else if (k < 3 && (gaps[g + k] !== gap || text[ends[g + k]!] !== sep)) grouped = false;
      }
      if (!grouped) continue;
      // A fifth group of four on either side makes it a longer number (an account), not a card.
      if (g > 0 && gaps[g - 1] === gap && groupLength(index, g - 1) === 4) continue;
      if (g + 4 < starts.length && gaps[g + 3] === gap && groupLength(index, g + 4) === 4) continue;
      accept(input, starts[g]!, ends[g + 3]!, true, out);
    }
    return out;
  },
  mask: (value) => maskDigits(value, 4),
};
