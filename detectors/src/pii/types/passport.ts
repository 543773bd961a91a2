// PASSPORT_RF: the internal passport's series (4 digits: 2 of the region, 2 of the year the blank was
// printed) and number (6 digits). Written "45 08 123456", "4508 123456", "серия 45 08 № 123456",
// "серия 4508 номер 123456", "Passport No. 4508 123456", or all ten digits together.
// With a passport word nearby (before the number, as the key of a key=value line such as
// "DOC_NUMBER=4508123456", or as the header of its table column) any of these forms counts. Without one, only the two grouped forms count,
// and only when the year digits are plausible (blanks since 1997), because "4508 123456" is otherwise
// just two numbers. Ten digits in a row without a passport word are left to the INN rule.
// The span runs from the first digit of the series to the last digit of the number.
// Mask (our choice, the spec gives none): all digits replaced by "*", the rest kept ("** ** № ******").
import type { PiiCandidate, PiiRule, PiiScanInput } from '../rule.js';
import { allSameDigit } from '../text/chars.js';
import { Gap, groupLength } from '../text/digit-groups.js';
import { standaloneNumber } from '../text/boundaries.js';
import { createColumnHeaders } from '../text/columns.js';
import { verdict, wordFlags } from '../text/keywords.js';
import { maskDigits } from '../text/mask-text.js';

/** Passports of the current form are printed since 1997; the series year runs 97..99, 00..now+a few. */
const LAST_YEAR = 30;
const plausibleYear = (yy: number) => yy >= 97 || yy <= LAST_YEAR;

/** Between series and number: spaces, and optionally "№", "N", "No.", "#", "номер", "number", with
 * a comma or colon. Tested on at most 16 characters, so the pattern's cost is bounded. */
const CONNECTOR = /^[\s,:]*(?:(?:№|#|n[o°º]?\.?|nr\.?|номер|number|num\.?)[\s:]*)?$/iu;
/** "4510-123456": a dash joins series and number only next to a passport word. */
const DASH_CONNECTOR = /^\s?[-–]\s?$/u;
const MAX_CONNECTOR = 16;

/** Whether the connector holds a number sign or word (stronger than a bare space). */
const NAMED_CONNECTOR = /[№#]|n|номер/iu;

type Link = 'space' | 'named' | 'dash';

function connector(text: string, from: number, to: number): Link | undefined {
  if (to - from > MAX_CONNECTOR) return undefined;
  const between = text.slice(from, to);
  if (DASH_CONNECTOR.test(between)) return 'dash';
  if (!CONNECTOR.test(between)) return undefined;
  return NAMED_CONNECTOR.test(between) ? 'named' : 'space';
}

function score(input: PiiScanInput, start: number, series: string, form: 'pairs' | 'four' | 'ten', link: Link, column: string | undefined): number {
  const context = verdict(input.contextBefore(start), 'PASSPORT_RF');
  if (context.own || (column !== undefined && columnNamesPassport(column))) return 0.95;
  if (context.other) return 0.3;
  if (context.negative) return 0.1;
  if (form === 'ten' || link === 'dash' || !plausibleYear(Number(series.slice(2, 4)))) return 0;
  if (link === 'named') return 0.85;
  return form === 'pairs' ? 0.8 : 0.7;
}

/** A table column named for passports ("passport", "passport_no", "DOC_NUMBER", "Паспорт"). */
function columnNamesPassport(name: string): boolean {
  let flags = 0;
  for (const word of name.split(/[^\p{L}]+/u)) if (word) flags |= wordFlags(word);
  return verdict(flags, 'PASSPORT_RF').own;
}

export const passportRule: PiiRule = {
  type: 'PASSPORT_RF',
  scan(input) {
    const { text } = input;
    const index = input.digitGroups();
    const { starts, ends, gaps } = index;
    const out: PiiCandidate[] = [];
    const columns = createColumnHeaders(text);
    const consider = (firstGroup: number, lastGroup: number, series: string, number: string, form: 'pairs' | 'four' | 'ten', link: Link) => {
      const start = starts[firstGroup]!;
      const end = ends[lastGroup]!;
      if (series.startsWith('00') || allSameDigit(series + number)) return;
      // Joined by phone punctuation to more digits on either side: part of something longer.
      if (firstGroup > 0 && gaps[firstGroup - 1] !== Gap.Other) return;
      // "4510-123456" is one dashed number; as a passport only with a passport word (see score).
      if (lastGroup + 1 < starts.length && (gaps[lastGroup] === Gap.Dash || gaps[lastGroup] === Gap.Dot || gaps[lastGroup] === Gap.Phone)) return;
      if (!standaloneNumber(text, start, end)) return;
      const s = score(input, start, series, form, link, columns.nameAt(start));
      if (s > 0) out.push({ start, end, score: s });
    };
    for (let g = 0; g < starts.length; g++) {
      const length = groupLength(index, g);
      if (length === 10) {
        const digits = text.slice(starts[g]!, ends[g]!);
        consider(g, g, digits.slice(0, 4), digits.slice(4), 'ten', 'space');
        continue;
      }
      let seriesEnd: number;
      let form: 'pairs' | 'four';
      if (length === 4) {
        seriesEnd = g;
        form = 'four';
      } else if (length === 2 && g + 1 < starts.length && gaps[g] === Gap.Space && groupLength(index, g + 1) === 2) {
        seriesEnd = g + 1;
        form = 'pairs';
      } else continue;
      const numberGroup = seriesEnd + 1;
      if (numberGroup >= starts.length || groupLength(index, numberGroup) !== 6) continue;
      const link = connector(text, ends[seriesEnd]!, starts[numberGroup]!);
      if (!link) continue;
      const series = form === 'four' ? text.slice(starts[g]!, ends[g]!) : text.slice(starts[g]!, ends[g]!) + text.slice(starts[g + 1]!, ends[g + 1]!);
      consider(g, numberGroup, series, text.slice(starts[numberGroup]!, ends[numberGroup]!), form, link);
    }
    return out;
  },
  mask: (value) => maskDigits(value),
};
