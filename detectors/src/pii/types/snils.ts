// SNILS (personal insurance account number): 11 digits, the last two a check number of the first nine,
// usually written "123-456-789 01" (also with a dash or a space before the check number, or all together).
// The grouped form is distinctive; eleven digits in a row are also how Russian phones are written
// ("89161234567"), so a bare run that looks like a mobile number yields to the phone rule unless a
// SNILS word is near.
// Mask (our choice, the spec gives none): all digits replaced by "*", separators kept ("***-***-*** **").
import type { PiiCandidate, PiiRule } from '../rule.js';
import { snilsValid } from '../checksums.js';
import { allSameDigit, isDigit } from '../text/chars.js';
import { Gap, groupLength } from '../text/digit-groups.js';
import { standaloneNumber } from '../text/boundaries.js';
import { verdict } from '../text/keywords.js';
import { maskDigits } from '../text/mask-text.js';

/** 7/8 followed by 9: the shape of a Russian mobile number written without punctuation. */
const looksLikeMobile = (digits: string) => (digits[0] === '7' || digits[0] === '8') && digits[1] === '9';

export const snilsRule: PiiRule = {
  type: 'SNILS',
  scan(input) {
    const { text } = input;
    const index = input.digitGroups();
    const { starts, ends, gaps } = index;
    const out: PiiCandidate[] = [];
    const consider = (start: number, end: number, grouped: boolean) => {
      let digits = '';
      for (let i = start; i < end; i++) if (isDigit(text.charCodeAt(i))) digits += text[i];
      if (allSameDigit(digits) || !snilsValid(digits) || !standaloneNumber(text, start, end)) return;
      const context = verdict(input.contextBefore(start), 'SNILS');
      let score: number;
      if (context.own) score = 0.98;
      else if (grouped) score = context.other ? 0.55 : context.negative ? 0.4 : 0.9;
      else if (context.other) score = 0.35;
      else if (context.negative) score = 0.1;
      else score = looksLikeMobile(digits) ? 0.45 : 0.65;
      out.push({ start, end, score });
    };
    for (let g = 0; g < starts.length; g++) {
      const length = groupLength(index, g);
      if (length === 11) {
        consider(starts[g]!, ends[g]!, false);
        continue;
      }
      if (length !== 3 || g + 3 >= starts.length) continue;
      const first = gaps[g]!;
      if (first !== Gap.Dash && first !== Gap.Space) continue;
      if (gaps[g + 1] !== first) continue;
      const last = gaps[g + 2]!;
      if (last !== Gap.Space && last !== Gap.Dash) continue;
      if (groupLength(index, g + 1) !== 3 || groupLength(index, g + 2) !== 3 || groupLength(index, g + 3) !== 2) continue;
      // Part of a longer dashed number on either side: not a SNILS.
      if (g > 0 && gaps[g - 1] === Gap.Dash) continue;
      if (g + 4 < starts.length && gaps[g + 3] === Gap.Dash) continue;
      consider(starts[g]!, ends[g + 3]!, true);
    }
    return out;
  },
  mask: (value) => maskDigits(value),
};
