// Judging one PHONE_NUMBER window (phone-windows.ts): its digits asked of libphonenumber by the form
// it is written in ("+", exit prefix, Russian trunk prefix, national grouping), and its context words.
import type { CountryCode } from 'libphonenumber-js/max';
import type { PiiScanInput } from '../rule.js';
import { allSameDigit } from '../text/chars.js';
import { verdict, type ContextVerdict } from '../text/keywords.js';
import { groupingMatches, type PhoneLookup } from './phone-lookup.js';
import { MAX_DIGITS, MAX_NATIONAL, MIN_INTERNATIONAL, MIN_NATIONAL, NATIONAL_SHAPES, type PhoneWindow } from './phone-windows.js';

/**
 * International dialling prefixes written instead of "+": "00" (most of the world), "011" (the NANP),
 * "001" (the NANP's "00" in some countries' usage; also "00" + country code 1, tried after it).
 */
const EXIT_PREFIXES = ['011', '001', '00'] as const;
export const LONGEST_EXIT = 3;

export const exitPrefixAt = (text: string, at: number) => text.charCodeAt(at) === 48 && (text.charCodeAt(at + 1) === 48 || text.startsWith('11', at + 1));

/** A number written with an exit prefix: judged as the same number written with "+". */
export function judgePhoneExit(input: PiiScanInput, w: PhoneWindow, lookup: PhoneLookup, regions: readonly CountryCode[]): number {
  for (const prefix of EXIT_PREFIXES) {
    if (!w.digits.startsWith(prefix)) continue;
    const rest = w.digits.slice(prefix.length);
    if (rest.length > MAX_DIGITS) continue;
    const lengths = w.shape.split('-').map(Number);
    lengths[0]! -= prefix.length;
    if (lengths[0]! < 0) continue;
    if (lengths[0] === 0) lengths.shift();
    const score = judgePhone(input, { ...w, digits: rest, shape: lengths.join('-'), groups: lengths.length }, true, lookup, regions);
    if (score > 0) return score;
  }
  return 0;
}

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

/** The score of a window (0: not a phone number); `plus` when it is written with "+" or an exit prefix. */
export function judgePhone(input: PiiScanInput, w: PhoneWindow, plus: boolean, lookup: PhoneLookup, regions: readonly CountryCode[]): number {
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

