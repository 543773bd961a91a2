// Check digits of the numeric identifiers. Each takes a string of ASCII digits only.

const digitAt = (digits: string, i: number): number => digits.charCodeAt(i) - 48;

/** Luhn (ISO/IEC 7812-1), the check digit of payment card numbers. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digitAt(digits, i);
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return digits.length > 0 && sum % 10 === 0;
}

function innCheck(digits: string, weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += digitAt(digits, i) * weights[i]!;
  return (sum % 11) % 10;
}

const INN10 = [2, 4, 10, 3, 5, 9, 4, 6, 8];
const INN12_FIRST = [7, 2, 4, 10, 3, 5, 9, 4, 6, 8];
const INN12_SECOND = [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8];

/** INN of a legal entity (10 digits, one check digit) or of a person (12 digits, two check digits). */
export function innValid(digits: string): boolean {
  if (digits.length === 10) return innCheck(digits, INN10) === digitAt(digits, 9);
  if (digits.length === 12) {
    return innCheck(digits, INN12_FIRST) === digitAt(digits, 10) && innCheck(digits, INN12_SECOND) === digitAt(digits, 11);
  }
  return false;
}

/** The SNILS check number of the first nine digits (the Pension Fund's rule). */
export function snilsCheck(nine: string): number {
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += digitAt(nine, i) * (9 - i);
  if (sum < 100) return sum;
  if (sum === 100 || sum === 101) return 0;
  const rest = sum % 101;
  return rest === 100 ? 0 : rest;
}

/** Numbers up to 001-001-998 were issued before the check number existed and cannot be verified. */
const SNILS_CHECKED_FROM = 1001998;

/** SNILS: 11 digits, the last two the check number of the first nine. */
export function snilsValid(digits: string): boolean {
  if (digits.length !== 11) return false;
  if (Number(digits.slice(0, 9)) <= SNILS_CHECKED_FROM) return false;
  return snilsCheck(digits.slice(0, 9)) === Number(digits.slice(9));
}
