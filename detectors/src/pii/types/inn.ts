// INN (taxpayer number): 10 digits for an organisation, 12 for a person, with the official check digits.
// Written as one run of digits, possibly glued to its label ("ИНН7707083893"). A random 10-digit number
// passes the check one time in ten, so a word naming another number nearby (phone, order, KPP…) lowers
// the score below the threshold, and "ИНН"/"INN"/"tax id" raises it.
// Mask (spec): all digits replaced by "*".
import type { PiiCandidate, PiiRule } from '../rule.js';
import { innValid } from '../checksums.js';
import { allSameDigit } from '../text/chars.js';
import { groupLength } from '../text/digit-groups.js';
import { standaloneNumber } from '../text/boundaries.js';
import { verdict } from '../text/keywords.js';
import { maskDigits } from '../text/mask-text.js';

export const innRule: PiiRule = {
  type: 'INN',
  scan(input) {
    const { text } = input;
    const index = input.digitGroups();
    const out: PiiCandidate[] = [];
    for (let g = 0; g < index.starts.length; g++) {
      const length = groupLength(index, g);
      if (length !== 10 && length !== 12) continue;
      const start = index.starts[g]!;
      const end = index.ends[g]!;
      const digits = text.slice(start, end);
      if (allSameDigit(digits) || !innValid(digits) || !standaloneNumber(text, start, end)) continue;
      const context = verdict(input.contextBefore(start), 'INN');
      // Twelve digits with two check digits pass by chance one time in a hundred: a stronger signal.
      const score = context.own ? 0.95 : context.other ? 0.35 : context.negative ? 0.1 : length === 12 ? 0.75 : 0.7;
      out.push({ start, end, score });
    }
    return out;
  },
  mask: (value) => maskDigits(value),
};
