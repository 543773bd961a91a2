// A seeded PRNG (mulberry32) and the few helpers the corpus generator needs, so a seed always yields the
// same corpus. The state lives in the closure of one generator, never at module level.

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(probability: number): boolean;
  /** `count` random characters of `alphabet`. */
  chars(alphabet: string, count: number): string;
  digits(count: number): string;
}

export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const chars = (alphabet: string, count: number) => {
    let out = '';
    for (let i = 0; i < count; i++) out += alphabet[Math.floor(next() * alphabet.length)];
    return out;
  };
  return { next, int, pick, chance: (p) => next() < p, chars, digits: (count) => chars('0123456789', count) };
}

export const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const BASE64URL = `${ALNUM}-_`;
export const BASE64 = `${ALNUM}+/`;
export const HEX = '0123456789abcdef';
export const UPPER_ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
