// The window's code units, and its character n-grams counted into the accumulator.
import { threatFmix32, THREAT_FNV_OFFSET, THREAT_FNV_PRIME } from './hashing.js';
import type { ThreatFeatureConfig } from './features.js';

const GOLDEN = 0x9e3779b9;

export interface ThreatCharGrams {
  /**
   * The loaded window's code units with a space on each side (code unit j of the text is codes[j + 1]);
   * replaced when a window longer than the config's is loaded.
   */
  codes: Uint16Array;
  /** Loads a window's text into `codes` (the last window's code units are kept aside, see count). */
  load(text: string): void;
  /**
   * Counts the character n-grams of the loaded window (`length` code units). `shift`, when the window
   * may start that many code units after the window counted just before (the next window of the same
   * view): where their code units agree, the n-grams wholly inside the overlap are copied from that
   * count instead of hashed again.
   */
  count(length: number, shift?: number): void;
}

export function createThreatCharGrams(config: ThreatFeatureConfig, seedChar: number, countBuckets: (buckets: Int32Array, length: number) => void): ThreatCharGrams {
  const mask = 2 ** config.dimensionsLog2 - 1;
  const lengths = config.charNgramMax - config.charNgramMin + 1;
  const lengthSalts = Int32Array.from({ length: config.charNgramMax + 1 }, (_, n) => Math.imul(n, GOLDEN));
  // Each character n-gram's bucket in the order they are counted (by start position, then length).
  // The code units and the buckets grow only for a window longer than the config's.
  let codeBytes = Buffer.alloc(2 * (config.windowChars + 2));
  // The code units loaded before the current ones (load swaps the two buffers).
  let previousBytes = Buffer.alloc(codeBytes.length);
  let previousCodes: Uint16Array = new Uint16Array(previousBytes.buffer, previousBytes.byteOffset, config.windowChars + 2);
  let buckets = new Int32Array((config.windowChars + 2) * lengths);
  // The layout every model so far uses (1- to 5-grams) is hashed by an unrolled loop, a third faster than the loop over lengths.
  const unrolled = config.charNgramMin === 1 && config.charNgramMax === 5;
  const [, salt1, salt2, salt3, salt4, salt5] = Array.from(lengthSalts) as [number, number, number, number, number, number];
  // A 1-gram's bucket depends on its code unit alone: looked up (256 KB, once per extractor) instead of
  // hashed, a fifth of the unrolled loop's finalisers.
  const unigrams = new Int32Array(0x10000);
  for (let c = 0; c < unigrams.length; c++) unigrams[c] = threatFmix32(Math.imul((THREAT_FNV_OFFSET ^ seedChar) ^ c, THREAT_FNV_PRIME) ^ salt1) & mask;
  // The length of the window whose buckets `buckets` holds and whose code units previousCodes holds
  // once the next window is loaded (0: none, or not in the unrolled layout).
  let counted = 0;
  let loadedSinceCount = 0;

  // The window's code units copied by Buffer.write (lone surrogates kept): a charCodeAt per character of
  // a window, a slice of its view, cost four times as much.
  const load = (text: string): void => {
    const n = text.length + 2;
    [codeBytes, previousBytes] = [previousBytes, codeBytes];
    [grams.codes, previousCodes] = [previousCodes, grams.codes];
    loadedSinceCount++;
    if (grams.codes.length < n) {
      codeBytes = Buffer.alloc(2 * n);
      grams.codes = new Uint16Array(codeBytes.buffer, codeBytes.byteOffset, n);
      buckets = new Int32Array(n * lengths);
      counted = 0;
    }
    const codes = grams.codes;
    codes[0] = 0x20;
    codeBytes.write(text, 2, 'utf16le');
    codes[n - 1] = 0x20;
  };

  // How many leading code units of the loaded window are the last ones of the window counted before,
  // `shift` code units on (0 when they differ or that window's code units are gone).
  const overlapOf = (length: number, shift: number): number => {
    if (!unrolled || counted === 0 || loadedSinceCount !== 1 || shift <= 0 || shift >= counted) return 0;
    const overlap = Math.min(counted - shift, length);
    const codes = grams.codes;
    const previous = previousCodes;
    for (let k = 1; k <= overlap; k++) if (codes[k] !== previous[k + shift]) return 0;
    return overlap;
  };

  // Every table and constant is read into a local first: a closure's variables are loaded again on
  // every iteration, which cost several times the hashing itself.
  const count = (length: number, shift = 0): void => {
    const codes = grams.codes;
    const out = buckets;
    const n = length + 2;
    // Long prompts' windows overlap by a quarter (a 2 KB prompt's by half): position i of this window
    // (code unit i - 1 of its text) is position i + shift of the last one, and while its five n-grams
    // stay inside the overlap, away from either window's padding, their buckets are those already
    // computed there. Position 0 (the leading space) is hashed, then positions 1 .. reused are copied.
    const overlap = overlapOf(length, shift);
    let reused = 0;
    if (overlap >= 5) {
      reused = overlap - 4;
      out.copyWithin(5, 5 * (1 + shift), 5 * (1 + shift + reused));
    }
    const skipAt = reused > 0 ? 1 : -1;
    const min = config.charNgramMin;
    const max = config.charNgramMax;
    const start = THREAT_FNV_OFFSET ^ seedChar;
    const prime = THREAT_FNV_PRIME;
    const bits = mask;
    let m = 0;
    let i = 0;
    if (unrolled) {
      const single = unigrams;
      const s2 = salt2;
      const s3 = salt3;
      const s4 = salt4;
      const s5 = salt5;
      for (; i + 5 <= n; i++) {
        if (i === skipAt) {
          i += reused;
          m += 5 * reused;
          if (i + 5 > n) break;
        }
        const c0 = codes[i]!;
        let h = Math.imul(start ^ c0, prime);
        out[m] = single[c0]!;
        h = Math.imul(h ^ codes[i + 1]!, prime);
        out[m + 1] = threatFmix32(h ^ s2) & bits;
        h = Math.imul(h ^ codes[i + 2]!, prime);
        out[m + 2] = threatFmix32(h ^ s3) & bits;
        h = Math.imul(h ^ codes[i + 3]!, prime);
        out[m + 3] = threatFmix32(h ^ s4) & bits;
        h = Math.imul(h ^ codes[i + 4]!, prime);
        out[m + 4] = threatFmix32(h ^ s5) & bits;
        m += 5;
      }
    }
    for (; i < n; i++) {
      let h = start;
      const end = Math.min(max, n - i);
      for (let k = 0; k < end; k++) {
        h = Math.imul(h ^ codes[i + k]!, prime);
        if (k + 1 >= min) out[m++] = threatFmix32(h ^ lengthSalts[k + 1]!) & bits;
      }
    }
    counted = unrolled ? length : 0;
    loadedSinceCount = 0;
    countBuckets(out, m);
  };

  const grams: ThreatCharGrams = {
    codes: new Uint16Array(codeBytes.buffer, codeBytes.byteOffset, config.windowChars + 2),
    load,
    count,
  };
  return grams;
}
