// Tests on the body of a key or token: random keys against words and placeholders.

export interface RandomnessOptions {
  /** Distinct characters needed ("xxxxxxxx" and "00000000" are placeholders). Default 8. */
  minDistinct?: number;
  /**
   * `digit`: a digit is required (long keys, where a random body lacks one with negligible odds);
   * `digit-or-mixed-case` (default): a digit or both letter cases, which words and placeholders
   * ("your-api-key-here") lack; `none`: the alphabet and length already say enough.
   */
  require?: 'digit' | 'digit-or-mixed-case' | 'none';
}

/** Whether a key body looks random rather than like words or a placeholder. */
export function looksRandom(body: string, options: RandomnessOptions = {}): boolean {
  const minDistinct = options.minDistinct ?? 8;
  let digit = false;
  let upper = false;
  let lower = false;
  const seen = new Set<number>();
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    if (c >= 48 && c <= 57) digit = true;
    else if (c >= 65 && c <= 90) upper = true;
    else if (c >= 97 && c <= 122) lower = true;
    if (seen.size < minDistinct) seen.add(c);
  }
  if (!(upper || lower) || seen.size < minDistinct) return false;
  const require = options.require ?? 'digit-or-mixed-case';
  if (require === 'digit') return digit;
  if (require === 'digit-or-mixed-case') return digit || (upper && lower);
  return true;
}

/** The longest stretch of ASCII letters and digits: real keys have long ones, hyphenated words do not. */
export function longestAlnumRun(body: string): number {
  let best = 0;
  let current = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    const alnum = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    current = alnum ? current + 1 : 0;
    if (current > best) best = current;
  }
  return best;
}
