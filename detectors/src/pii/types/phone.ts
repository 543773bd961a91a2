// PHONE_NUMBER: international numbers ("+44 20 7946 0958", "+7 (916) 123-45-67", "+79161234567"),
// Russian numbers with the trunk prefix ("8 (916) 123-45-67", "8-800-555-35-35", "89161234567") and
// national numbers of the text's language ("(415) 555-2671", "(916) 123-45-67"). Candidates are runs of
// digit groups joined by spaces, dashes, dots or brackets on one line; libphonenumber-js (full metadata)
// decides whether the digits are a valid number of the country.
// A national number without "+" or trunk prefix is the weakest form: "2024-01-15 10" is a valid US
// number by digits alone. It counts only when its grouping matches the country's own grouping
// (so dates and IP addresses do not), or, written as one run of digits, when a phone word is near.
// Mask (spec): every digit but the last two replaced by "*", punctuation kept ("+* (***) ***-**-67").
// The parts: phone-windows.ts (candidate windows over digit groups), phone-lookup.ts (libphonenumber),
// phone-judge.ts (a window's score).
import type { CountryCode } from 'libphonenumber-js/max';
import type { PiiCandidate, PiiRule, PiiScanInput } from '../rule.js';
import { Gap } from '../text/digit-groups.js';
import { standaloneNumber } from '../text/boundaries.js';
import { maskDigits } from '../text/mask-text.js';
import { exitPrefixAt, judgePhone, judgePhoneExit, LONGEST_EXIT } from './phone-judge.js';
import { createPhoneLookup } from './phone-lookup.js';
import { chainFacts, phoneWindowsAt } from './phone-windows.js';

/** The country to read national numbers by, per language; "auto" and others try Russia, then the US. */
const LANGUAGE_REGIONS: Readonly<Record<string, CountryCode>> = {
  ru: 'RU', uk: 'UA', be: 'BY', kk: 'KZ', en: 'US', de: 'DE', fr: 'FR', es: 'ES', it: 'IT', pt: 'BR',
  pl: 'PL', tr: 'TR', nl: 'NL', zh: 'CN', ja: 'JP', ko: 'KR', ar: 'SA', hi: 'IN', uz: 'UZ', hy: 'AM',
  ka: 'GE', az: 'AZ', ky: 'KG', tg: 'TJ', tk: 'TM', ro: 'RO', cs: 'CZ', sv: 'SE', fi: 'FI', he: 'IL',
};

export function regionsFor(language: string): CountryCode[] {
  const own = LANGUAGE_REGIONS[language];
  const regions: CountryCode[] = own ? [own] : [];
  for (const fallback of ['RU', 'US'] as const) if (!regions.includes(fallback)) regions.push(fallback);
  return regions;
}

/** "x123", " ext. 123", " доб. 123" right after a number: its extension, part of the entity. */
const EXTENSION = /^(?:x|\s?(?:ext|доб)\.?\s?)\d{1,6}(?!\d)/iu;
const EXTENSION_WINDOW = 16;

function extensionEnd(text: string, end: number): number {
  const found = EXTENSION.exec(text.slice(end, end + EXTENSION_WINDOW));
  return found ? end + found[0].length : end;
}

export const phoneRule: PiiRule = {
  type: 'PHONE_NUMBER',
  scan(input: PiiScanInput) {
    const { text } = input;
    const index = input.digitGroups();
    const facts = chainFacts(index);
    const { starts, gaps } = index;
    const regions = regionsFor(input.language);
    const lookup = createPhoneLookup();

    const out: PiiCandidate[] = [];
    let g = 0;
    while (g < starts.length) {
      const groupStart = starts[g]!;
      const before = groupStart > 0 ? text.charCodeAt(groupStart - 1) : 0;
      const plus = before === 43; /* + */
      const bracket = before === 40; /* ( */
      // Start only at the beginning of a chain, after a space, or at "+": never in the middle of
      // "2024-01-15" or "(916) 123-45-67".
      const prevGap = g > 0 ? gaps[g - 1]! : Gap.Other;
      const startable = plus || prevGap === Gap.Other || prevGap === Gap.Space || (bracket && prevGap === Gap.Phone);
      let found: { candidate: PiiCandidate; lastGroup: number } | undefined;
      if (startable) {
        const spanStart = plus || bracket ? groupStart - 1 : groupStart;
        const exit = !plus && !bracket && exitPrefixAt(text, groupStart);
        for (const w of phoneWindowsAt(text, index, facts, g, spanStart, plus || exit, exit ? LONGEST_EXIT : 0)) {
          const score = exit ? judgePhoneExit(input, w, lookup, regions) : judgePhone(input, w, plus, lookup, regions);
          if (score <= 0) continue;
          const end = extensionEnd(text, w.end);
          if (standaloneNumber(text, w.start, end, { allowPlus: true })) {
            found = { candidate: { start: w.start, end, score }, lastGroup: w.lastGroup };
            break;
          }
        }
      }
      if (found) {
        out.push(found.candidate);
        g = found.lastGroup + 1;
      } else g++;
    }
    return out;
  },
  mask: (value) => maskDigits(value, 2),
};

