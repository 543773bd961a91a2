// Card issuer identification numbers (IIN, the first digits of a PAN) and the lengths each scheme
// issues, from the schemes' published ranges (ISO/IEC 7812 registry as summarised by the card networks).
// A 16-digit number is a card by shape alone (the common case); any other length from 13 to 19 must
// also start with a range that issues that length, so an arbitrary long number that passes Luhn (one
// in ten does) is not taken for a card.

interface IssuerRange {
  scheme: string;
  /** Inclusive bounds of the number formed by the first `low.length` digits. */
  low: string;
  high: string;
  lengths: readonly number[];
}

const range = (scheme: string, low: string, high: string, lengths: readonly number[]): IssuerRange => ({ scheme, low, high, lengths });
const SIXTEEN_TO_NINETEEN = [16, 17, 18, 19];

export const CARD_ISSUER_RANGES: readonly IssuerRange[] = [
  range('visa', '4', '4', [13, 16, 19]),
  range('mastercard', '51', '55', [16]),
  range('mastercard', '2221', '2720', [16]),
  range('amex', '34', '34', [15]),
  range('amex', '37', '37', [15]),
  range('diners', '300', '305', [14, 16, 17, 18, 19]),
  range('diners', '3095', '3095', [14, 16, 17, 18, 19]),
  range('diners', '36', '36', [14, 16, 17, 18, 19]),
  range('diners', '38', '39', [14, 16, 17, 18, 19]),
  range('jcb', '3528', '3589', SIXTEEN_TO_NINETEEN),
  range('discover', '6011', '6011', SIXTEEN_TO_NINETEEN),
  range('discover', '644', '649', SIXTEEN_TO_NINETEEN),
  range('discover', '65', '65', SIXTEEN_TO_NINETEEN),
  range('unionpay', '62', '62', SIXTEEN_TO_NINETEEN),
  range('unionpay', '81', '81', SIXTEEN_TO_NINETEEN),
  range('mir', '2200', '2204', SIXTEEN_TO_NINETEEN),
  range('maestro', '5018', '5018', [13, 14, 15, 16, 17, 18, 19]),
  range('maestro', '5020', '5020', [13, 14, 15, 16, 17, 18, 19]),
  range('maestro', '5038', '5038', [13, 14, 15, 16, 17, 18, 19]),
  range('maestro', '5893', '5893', [13, 14, 15, 16, 17, 18, 19]),
  range('maestro', '6304', '6304', [13, 14, 15, 16, 17, 18, 19]),
  range('maestro', '6759', '6759', [13, 14, 15, 16, 17, 18, 19]),
  range('maestro', '6761', '6763', [13, 14, 15, 16, 17, 18, 19]),
  range('verve', '506099', '506198', [16, 18, 19]),
  range('verve', '650002', '650027', [16, 18, 19]),
  range('rupay', '508', '508', [16]),
  range('rupay', '60', '60', [16]),
  range('troy', '9792', '9792', [16]),
];

/** The scheme issuing `digits` (its length included), or undefined. */
export function cardScheme(digits: string): string | undefined {
  for (const r of CARD_ISSUER_RANGES) {
    if (!r.lengths.includes(digits.length)) continue;
    const head = digits.slice(0, r.low.length);
    if (head >= r.low && head <= r.high) return r.scheme;
  }
  return undefined;
}

export const MIN_CARD_DIGITS = 13;
export const MAX_CARD_DIGITS = 19;
