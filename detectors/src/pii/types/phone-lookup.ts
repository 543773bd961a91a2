// PHONE_NUMBER's questions to libphonenumber-js (full metadata): is this digit string a possible or a
// valid number of a country, and does its written grouping match the country's own.
import { PhoneNumber, getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';

/** A number libphonenumber could parse: its length fits the country; `valid` when its digits do too. */
export interface ParsedPhone {
  number: PhoneNumber;
  valid: boolean;
}
export type PhoneLookup = (digits: string, region?: CountryCode) => ParsedPhone | null;

function judged(number: PhoneNumber | undefined): ParsedPhone | null {
  if (!number) return null;
  if (number.isValid()) return { number, valid: true };
  return number.isPossible() ? { number, valid: false } : null;
}

/**
 * "+" and the digits: built straight from E.164 (a third of the cost of parsing text, which matters
 * with many numbers in one text). Too short or no such country code: null.
 */
function fromE164(digits: string): ParsedPhone | null {
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
function fromNational(digits: string, region: CountryCode): ParsedPhone | null {
  const direct = fromE164(`${getCountryCallingCode(region)}${digits}`);
  if (direct?.valid) return direct;
  const first = digits.charCodeAt(0);
  if (first !== 48 && first !== 49 && first !== 56) return direct;
  const parsed = judged(parsePhoneNumberFromString(digits, region));
  return parsed?.valid ? parsed : (direct ?? parsed);
}

/** A PhoneLookup that asks the library once per digit string and country (one per scanned text). */
export function createPhoneLookup(): PhoneLookup {
  const parsed = new Map<string, ParsedPhone | null>();
  return (digits, region) => {
    const key = region ? `${region}:${digits}` : `+${digits}`;
    let result = parsed.get(key);
    if (result === undefined) {
      result = region ? fromNational(digits, region) : fromE164(digits);
      parsed.set(key, result);
    }
    return result;
  };
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
export function groupingMatches(number: PhoneNumber, digits: string, writtenBreaks: readonly number[]): boolean {
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

