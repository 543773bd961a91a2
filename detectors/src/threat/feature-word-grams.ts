// The word groups of a window: word uni- and bigrams, each word with its position (head or body,
// opening a sentence or not) and concept n-grams, counted into the accumulator.
import { isThreatSurrogate, THREAT_CHAR, THREAT_CHAR_TABLE, threatCharWidth } from './char-classes.js';
import type { ThreatConceptLexicon } from './concepts.js';
import type { ThreatFeatureConfig } from './features.js';
import { threatFmix32, threatHashPair, THREAT_FNV_OFFSET, THREAT_FNV_PRIME } from './hashing.js';

const WORD_CHAR = /^[\p{L}\p{N}]$/u;
const WORD_FLAGS = THREAT_CHAR.letter | THREAT_CHAR.number;

/** Characters after which the next word opens a sentence or a list item: . ! ? : ; - * • > | # 。！？ */
const SENTENCE_OPENERS = new Set([0x2e, 0x21, 0x3f, 0x3a, 0x3b, 0x2d, 0x2a, 0x2022, 0x3e, 0x7c, 0x23, 0x3002, 0xff01, 0xff1f, 0x22, 0xab, 0xbb, 0x201c, 0x201e]);
const ASCII_SENTENCE_OPENERS = Uint8Array.from({ length: 0x80 }, (_, c) => (SENTENCE_OPENERS.has(c) ? 1 : 0));

export interface ThreatWordGrams {
  /**
   * Counts the word n-grams of the loaded window: `codes` holds its text (`text`: code unit j is
   * codes[j + 1]), which starts `offset` characters into its view. Its words' positions and its concept
   * sequence are kept for countPositions() and countConcepts().
   */
  countWords(codes: Uint16Array, text: string, offset: number): void;
  /** Counts each word of the last countWords() with its position tag. */
  countPositions(): void;
  /** Counts the concept uni-, bi- and trigrams of the last countWords(). */
  countConcepts(): void;
}

export interface ThreatWordSeeds {
  word: number;
  bigram: number;
  concept: number;
  position: number;
}

export function createThreatWordGrams(
  config: ThreatFeatureConfig,
  seeds: ThreatWordSeeds,
  lexicon: ThreatConceptLexicon,
  countBuckets: (buckets: Int32Array, length: number) => void,
): ThreatWordGrams {
  const mask = 2 ** config.dimensionsLog2 - 1;
  const charTable = THREAT_CHAR_TABLE;
  const { word: seedWord, bigram: seedBigram, concept: seedConcept, position: seedPosition } = seeds;
  // (concept id, word position) per concept found in the window.
  const conceptSeq: number[] = [];
  // The bucket of (word, position tag) per word of the window, counted after the word group is
  // flushed. A window has fewer words than characters.
  let positioned = new Int32Array(config.windowChars);
  let positionedCount = 0;
  // The word uni- and bigram buckets of the window in the order they are counted (two per word at most),
  // counted in one call; concept n-grams the same way (conceptNgramMax per concept at most).
  let wordBuckets = new Int32Array(2 * config.windowChars);
  let conceptBuckets = new Int32Array(config.windowChars * Math.max(1, config.conceptNgramMax));

  // Tables and counters are read into locals first: a closure's variables are loaded again on every
  // iteration of the loops below.
  const countWords = (codes: Uint16Array, text: string, offset: number): void => {
    // Not `number | undefined`: a hash above 2^30 in a variable that may hold undefined is boxed, an
    // allocation per word.
    let previous = 0;
    let first = true;
    let position = 0;
    let sentenceStart = offset === 0;
    conceptSeq.length = 0;
    const length = text.length;
    if (positioned.length < length) positioned = new Int32Array(length);
    if (wordBuckets.length < 2 * length) wordBuckets = new Int32Array(2 * length);
    const places = positioned;
    const out = wordBuckets;
    const table = charTable;
    const bits = mask;
    const headChars = config.headChars;
    const withPositions = config.positionWeight > 0;
    const withBigrams = config.wordNgramMax >= 2;
    const wordStart = THREAT_FNV_OFFSET ^ seedWord;
    const prime = THREAT_FNV_PRIME;
    let placed = 0;
    let m = 0;
    // The words of /[\p{L}\p{N}]+/u, found with the character table (char-classes.ts) instead of
    // matchAll, whose match arrays were a fifth of the worker's allocations.
    let i = 0;
    while (i < length) {
      const start = i;
      // The word's hash (threatHashString over its code units) is computed as it is scanned.
      let h = wordStart;
      while (i < length) {
        const c = codes[i + 1]!;
        // A letter or number of the BMP by the table, astral ones by the regex (see char-classes.ts);
        // the table has no class for a surrogate, so the common case is one read and one test.
        const width = (table[c]! & WORD_FLAGS) !== 0 ? 1 : isThreatSurrogate(c) ? threatCharWidth(text, i, WORD_FLAGS, WORD_CHAR) : 0;
        if (width === 0) break;
        h = Math.imul(h ^ c, prime);
        if (width === 2) h = Math.imul(h ^ codes[i + 2]!, prime);
        i += width;
      }
      if (i === start) {
        const c = codes[i + 1]!;
        // . ! ? : ; newline-like bullets and quotes open a sentence; a space keeps the state.
        if (c !== 0x20) sentenceStart = c < 0x80 ? ASCII_SENTENCE_OPENERS[c] === 1 : SENTENCE_OPENERS.has(c);
        i++;
        continue;
      }
      if (withPositions) {
        const tag = (offset + start < headChars ? 0 : 2) + (sentenceStart ? 1 : 0);
        places[placed++] = threatFmix32(threatHashPair(h, tag, seedPosition)) & bits;
      }
      sentenceStart = false;
      out[m++] = threatFmix32(h) & bits;
      if (withBigrams && !first) out[m++] = threatFmix32(threatHashPair(previous, h, seedBigram)) & bits;
      previous = h;
      first = false;
      const concept = lexicon.lookupCodes(codes, start + 1, i + 1);
      if (concept >= 0) conceptSeq.push(concept, position);
      position++;
    }
    positionedCount = placed;
    countBuckets(out, m);
  };

  const countPositions = (): void => countBuckets(positioned, positionedCount);

  // Each step may skip at most 3 non-concept words.
  const countConcepts = (): void => {
    const max = config.conceptNgramMax;
    const sequence = conceptSeq;
    const room = (sequence.length / 2) * Math.max(1, max);
    if (conceptBuckets.length < room) conceptBuckets = new Int32Array(room);
    const out = conceptBuckets;
    let m = 0;
    for (let i = 0; i < sequence.length; i += 2) {
      let h = threatFmix32(seedConcept ^ (sequence[i]! + 1));
      out[m++] = h & mask;
      for (let n = 2, j = i + 2; n <= max && j < sequence.length; n++, j += 2) {
        if (sequence[j + 1]! - sequence[j - 1]! > 4) break;
        h = threatFmix32(Math.imul(h ^ (sequence[j]! + 1), THREAT_FNV_PRIME) ^ n);
        out[m++] = h & mask;
      }
    }
    countBuckets(out, m);
  };

  return { countWords, countPositions, countConcepts };
}
