// PHONE_NUMBER: international numbers ("+44 20 7946 0958", "+7 (916) 123-45-67", "+79161234567"),
// Russian numbers with the trunk prefix ("8 (916) 123-45-67", "8-800-555-35-35", "89161234567") and
// national numbers of the text's language ("(415) 555-2671", "(916) 123-45-67"). Candidates are runs of
// digit groups joined by spaces, dashes, dots or brackets on one line; libphonenumber-js (full metadata)
// decides whether the digits are a valid number of the country.
// A national number without "+" or trunk prefix is the weakest form: "2024-01-15 10" is a valid US
// number by digits alone. It counts only when its grouping matches the country's own grouping
// (so dates and IP addresses do not), or, written as one run of digits, when a phone word is near.
// Mask (spec): every digit but the last two replaced by "*", punctuation kept ("+* (***) ***-**-67").
import { PhoneNumber, getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import type { PiiCandidate, PiiRule, PiiScanInput } from '../rule.js';
import { allSameDigit } from '../text/chars.js';
import { Gap, type DigitIndex } from '../text/digit-groups.js';
import { standaloneNumber } from '../text/boundaries.js';
import { verdict, type ContextVerdict } from '../text/keywords.js';
import { maskDigits } from '../text/mask-text.js';

/** E.164 allows 15 digits at most; no country's numbers are shorter than 7 with the country code. */
const MAX_DIGITS = 15;
const MIN_INTERNATIONAL = 8;
const MIN_NATIONAL = 9;
const MAX_NATIONAL = 12;
/** "+33 1 23 45 67 89" has six groups; more groups are something else (a list of numbers). */
const MAX_GROUPS = 6;

/**
 * Groupings of national numbers written without "+" or trunk prefix that are worth asking
 * libphonenumber about (group lengths, e.g. "415-555-2671" is 3-3-4). Dates ("2024-01-15 10"), IP
 * addresses and versions have other shapes and cost no library call. With a phone word near, any
 * grouping is asked.
 */
const NATIONAL_SHAPES = new Set([
  '3-3-4', '3-3-2-2', '3-7', '3-3-3', '2-4-4', '3-4-4', '4-3-4', '4-3-3', '5-6', '5-5', '3-8', '4-7', '4-6', '2-2-2-2-2', '2-3-2-2', '2-8', '3-2-2-2',
]);

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

/** Digit counts at which the country's international format breaks the national number into groups. */
function formatBoundaries(number: PhoneNumber): Set<number> {
  const international = number.formatInternational();
  const national = international.slice(international.indexOf(' ') + 1);
  const boundaries = new Set<number>();
  let count = 0;
  let inDigits = false;
  for (let i = 0; i < national.length; i++) {
    const c = national.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      count++;
      inDigits = true;
    } else if (inDigits) {
      boundaries.add(count);
      inDigits = false;
    }
  }
  return boundaries;
}

/** True when every break of the written groups falls on a break of the country's format. */
function groupingMatches(number: PhoneNumber, digits: string, writtenBreaks: readonly number[]): boolean {
  const national = number.nationalNumber as string;
  if (!digits.endsWith(national)) return false;
  // One run of digits has no breaks to compare (and formatting is the costly part).
  if (writtenBreaks.length === 0) return true;
  const offset = digits.length - national.length; // a trunk prefix such as "0" or "8"
  const allowed = formatBoundaries(number);
  for (const at of writtenBreaks) {
    const shifted = at - offset;
    if (shifted > 0 && !allowed.has(shifted)) return false;
  }
  return true;
}

interface Window {
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

const NO_WINDOWS: readonly Window[] = [];

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
interface ChainFacts {
  digitsBefore: Int32Array;
  nextEnding: Int32Array;
}

function chainFacts(index: DigitIndex): ChainFacts {
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
function windowsAt(text: string, index: DigitIndex, facts: ChainFacts, g: number, spanStart: number, plus: boolean, exitDigits = 0): readonly Window[] {
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
    // Without "+", only the forms judge() can accept are worth building: a trunk-prefixed number of 11
    // digits, one run of digits, or a national grouping ("4111 4111 4111" is none of them).
    if (!plus && !(trunk && count === 11) && j > g && !NATIONAL_SHAPE_CODES.has(code)) continue;
    if (endsWindow(index, j)) (endings ??= []).push(j);
  }
  if (!endings) return NO_WINDOWS;
  const windows: Window[] = [];
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

/** "x123", " ext. 123", " доб. 123" right after a number: its extension, part of the entity. */
const EXTENSION = /^(?:x|\s?(?:ext|доб)\.?\s?)\d{1,6}(?!\d)/iu;
const EXTENSION_WINDOW = 16;

function extensionEnd(text: string, end: number): number {
  const found = EXTENSION.exec(text.slice(end, end + EXTENSION_WINDOW));
  return found ? end + found[0].length : end;
}

/** A number libphonenumber could parse: its length fits the country; `valid` when its digits do too. */
interface Parsed {
  number: PhoneNumber;
  valid: boolean;
}
type Lookup = (digits: string, region?: CountryCode) => Parsed | null;

function judged(number: PhoneNumber | undefined): Parsed | null {
  if (!number) return null;
  if (number.isValid()) return { number, valid: true };
  return number.isPossible() ? { number, valid: false } : null;
}

/**
 * "+" and the digits: built straight from E.164 (a third of the cost of parsing text, which matters
 * with many numbers in one text). Too short or no such country code: null.
 */
function fromE164(digits: string): Parsed | null {
  try {
    return judged(new PhoneNumber(`+${digits}`));
  } catch {
    return null;
  }
}

/**
 * National digits read by a country's rules. Digits that are the national number itself are checked
 * as E.164 (cheap); only when that fails and they start like a trunk prefix ("0", "1", "8") does the
 * full parser strip it.
 */
function fromNational(digits: string, region: CountryCode): Parsed | null {
  const direct = fromE164(`${getCountryCallingCode(region)}${digits}`);
  if (direct?.valid) return direct;
  const first = digits.charCodeAt(0);
  if (first !== 48 && first !== 49 && first !== 56) return direct;
  const parsed = judged(parsePhoneNumberFromString(digits, region));
  return parsed?.valid ? parsed : (direct ?? parsed);
}

/**
 * International dialling prefixes written instead of "+": "00" (most of the world), "011" (the NANP),
 * "001" (the NANP's "00" in some countries' usage; also "00" + country code 1, tried after it).
 */
const EXIT_PREFIXES = ['011', '001', '00'] as const;
const LONGEST_EXIT = 3;

const exitPrefixAt = (text: string, at: number) => text.charCodeAt(at) === 48 && (text.charCodeAt(at + 1) === 48 || text.startsWith('11', at + 1));

/** A number written with an exit prefix: judged as the same number written with "+". */
function judgeExit(input: PiiScanInput, w: Window, lookup: Lookup, regions: readonly CountryCode[]): number {
  for (const prefix of EXIT_PREFIXES) {
    if (!w.digits.startsWith(prefix)) continue;
    const rest = w.digits.slice(prefix.length);
    if (rest.length > MAX_DIGITS) continue;
    const lengths = w.shape.split('-').map(Number);
    lengths[0]! -= prefix.length;
    if (lengths[0]! < 0) continue;
    if (lengths[0] === 0) lengths.shift();
    const score = judge(input, { ...w, digits: rest, shape: lengths.join('-'), groups: lengths.length }, true, lookup, regions);
    if (score > 0) return score;
  }
  return 0;
}

export const phoneRule: PiiRule = {
  type: 'PHONE_NUMBER',
  scan(input: PiiScanInput) {
    const { text } = input;
    const index = input.digitGroups();
    const facts = chainFacts(index);
    const { starts, gaps } = index;
    const regions = regionsFor(input.language);
    const parsed = new Map<string, Parsed | null>();
    const lookup: Lookup = (digits, region) => {
      const key = region ? `${region}:${digits}` : `+${digits}`;
      let result = parsed.get(key);
      if (result === undefined) {
        result = region ? fromNational(digits, region) : fromE164(digits);
        parsed.set(key, result);
      }
      return result;
    };

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
        for (const w of windowsAt(text, index, facts, g, spanStart, plus || exit, exit ? LONGEST_EXIT : 0)) {
          const score = exit ? judgeExit(input, w, lookup, regions) : judge(input, w, plus, lookup, regions);
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

/**
 * Groupings of the national part that read as a phone number even when libphonenumber finds the digits
 * impossible to assign (a range missing from its metadata, or the made-up "+7 (123) 456-78-90" people
 * use in examples): only numbers written this way with "+" or the Russian trunk prefix count then.
 */
const FALLBACK_SHAPES = new Set(['3-3-2-2', '3-3-4', '3-7', '2-4-4', '3-4-4', '1-2-2-2-2', '2-3-2-2', '3-3-3', '4-3-4', '4-6', '2-8', '3-8']);

/** Groupings of the ten national digits of a Russian number after the trunk digit. */
const RU_SHAPES = new Set(['3-3-2-2', '3-3-4', '3-7', '4-2-2-2', '4-6', '5-1-2-2', '5-5', '3-2-2-3', '3-3-2-1-1']);

/**
 * Cheap facts of the two fallback numbering plans (a national number of the +7 zone is ten digits
 * starting 3, 4, 6, 7, 8 or 9; of the NANP, ten digits whose area code and exchange start 2-9): numbers
 * failing them cost no library call, which matters because the shared codes +1 and +7 make the
 * library try every country of the zone.
 */
function planAllows(region: CountryCode, digits: string): boolean {
  if (region === 'RU') return digits.length === 10 && '346789'.includes(digits[0]!);
  if (region === 'US') return digits.length === 10 && digits[0]! >= '2' && digits[3]! >= '2';
  return true;
}

/** Score for a number that is possible but not valid, from its context. */
function fallbackScore(context: ContextVerdict): number {
  return context.own ? 0.8 : context.other ? 0.3 : context.negative ? 0.2 : 0.6;
}

function judge(input: PiiScanInput, w: Window, plus: boolean, lookup: Lookup, regions: readonly CountryCode[]): number {
  const { digits } = w;
  if (allSameDigit(digits)) return 0;
  // Context words are read only for windows that get this far (most windows fail on digits alone).
  let read: ContextVerdict | undefined;
  const context = () => (read ??= verdict(input.contextBefore(w.start), 'PHONE_NUMBER'));
  const shapeAfter = (groups: number) => w.shape.split('-').slice(groups).join('-');
  if (plus) {
    if (digits.length < MIN_INTERNATIONAL) return 0;
    const parsed = lookup(digits);
    if (!parsed) return 0;
    if (parsed.valid) return context().own ? 0.97 : context().negative ? 0.6 : 0.9;
    // Possible only: the country code written as its own group, then a phone grouping, or all digits
    // together in E.164 form; and not a national part of one repeated digit ("+7 (000) 000-00-00").
    const code = parsed.number.countryCallingCode as string;
    const national = parsed.number.nationalNumber as string;
    if (allSameDigit(national)) return 0;
    const e164 = w.groups === 1;
    // The national part's grouping: after the code written alone ("+44 7700 900123"), or with the code
    // glued to the first national group ("+447700 900123").
    const first = Number(w.shape.split('-')[0]);
    const nationalShape = first === code.length ? shapeAfter(1) : `${first - code.length}-${shapeAfter(1)}`;
    const grouped = w.groups > 1 && first >= code.length && digits.startsWith(code) && FALLBACK_SHAPES.has(nationalShape);
    return e164 || grouped ? fallbackScore(context()) : 0;
  }
  const formatted = w.groups > 1 || input.text.charCodeAt(w.start) === 40;
  // Russian trunk forms: 8 or 7 followed by the ten-digit national number, written together or with
  // the trunk digit alone and the rest in a Russian grouping ("8 916 123-45-67", "8-800-555-35-35",
  // "8 (3852) 12-34-56"), not in the grouping of a SNILS ("896-884-218 04").
  if (digits.length === 11 && (digits[0] === '8' || digits[0] === '7')) {
    const trunkAlone = w.groups === 1 || (w.shape.startsWith('1-') && RU_SHAPES.has(shapeAfter(1))) || (w.shape.startsWith('4-') && RU_SHAPES.has(`3-${shapeAfter(1)}`));
    const parsed = trunkAlone ? lookup(`7${digits.slice(1)}`) : null;
    if (parsed && parsed.number.countryCallingCode === '7') {
      if (parsed.valid) {
        if (context().own) return 0.95;
        if (context().other) return 0.3;
        if (context().negative) return 0.2;
        return formatted ? 0.88 : 0.75;
      }
      if (w.groups > 1 && !allSameDigit(digits.slice(1))) return fallbackScore(context());
    }
  }
  if (digits.length < MIN_NATIONAL || digits.length > MAX_NATIONAL) return 0;
  // A national grouping, or one run of digits with a phone word before it ("тел. 9161234567").
  if (!(formatted && NATIONAL_SHAPES.has(w.shape)) && !(w.groups === 1 && context().own)) return 0;
  for (const region of regions) {
    if (!planAllows(region, digits)) continue;
    const parsed = lookup(digits, region);
    if (!parsed?.valid || !groupingMatches(parsed.number, digits, w.breaks)) continue;
    if (context().own) return 0.85;
    if (context().other) return 0.3;
    if (context().negative) return 0.2;
    return 0.7;
  }
  // The canonical phone layouts, "(415) 555-2671", "555-123-4567", "(916) 123-45-67", count when the
  // digits fit the language's country even if that range is not assigned (the "555" of examples).
  const bracketed = input.text.charCodeAt(w.start) === 40;
  if (w.shape === '3-3-4' || (bracketed && w.shape === '3-3-2-2')) {
    const parsed = lookup(digits, regions[0]!);
    if (parsed && !allSameDigit(digits)) return fallbackScore(context());
  }
  return 0;
}
