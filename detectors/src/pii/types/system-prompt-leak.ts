// SYSTEM_PROMPT_LEAK: the answer repeats a long enough run of the request's system prompt. Both texts
// are read as words (letters and digits of any script, lower-cased), so changes of case, whitespace,
// line breaks and punctuation do not hide a copy. A leak is a run of at least 8 consecutive words of the
// prompt (the whole prompt when it is shorter, if it has at least 5 words and 30 characters): short
// common phrases ("you are a helpful") are not a leak. Matches separated by at most 3 other words are
// one leak (a copy with a word changed here and there).
// Words are numbered by a vocabulary of the prompt; windows of the answer are compared by a rolling hash
// and checked word by word, so the cost is linear in both texts.
// Mask (our choice): the whole span becomes "[SYSTEM_PROMPT]".
import { int32View, newInt32List, pushInt32 } from '@palisade/core';
import type { PiiCandidate, PiiRule } from '../rule.js';
import { isWordChar } from '../text/chars.js';

export const LEAK_MIN_WORDS = 8;
const SHORT_PROMPT_MIN_WORDS = 5;
const SHORT_PROMPT_MIN_CHARS = 30;
const MAX_GAP_WORDS = 3;

/**
 * The words of a text, in order. Words of the answer the prompt does not have can never be part of a
 * copy: a run of them is one entry (id -1) whose weight is the number of words it stands for, so a long
 * answer that quotes nothing costs a scan and almost no entries.
 */
interface Words {
  starts: Int32Array;
  ends: Int32Array;
  /** Vocabulary ids; -1 for a run of words the prompt does not have. */
  ids: Int32Array;
  /** Words each entry stands for: 1, or the length of an unknown run. */
  weights: Int32Array;
}

/** A number for a word's code units, so an answer's words are looked up without cutting each out. */
function wordHash(codes: string, start: number, end: number): number {
  let hash = 0;
  for (let i = start; i < end; i++) hash = (Math.imul(hash, 31) + codes.charCodeAt(i)) | 0;
  return hash;
}

/** Bits of a word hash that index the filter of the prompt's words. */
const FILTER_BITS = 16;

/**
 * The hashes of the prompt's words as a bit filter: one array read dismisses nearly every word of an
 * answer (a Set lookup per word was most of this rule's time on answers of short words, "7 7 7 …").
 * A word that passes is then looked up by its text, so a collision costs a lookup, never a wrong id.
 */
function knownHashes(vocabulary: Map<string, number>): Uint8Array {
  const filter = new Uint8Array(1 << (FILTER_BITS - 3));
  for (const word of vocabulary.keys()) {
    const slot = filterSlot(wordHash(word, 0, word.length));
    filter[slot >> 3]! |= 1 << (slot & 7);
  }
  return filter;
}

const filterSlot = (hash: number) => (hash ^ (hash >>> FILTER_BITS)) & ((1 << FILTER_BITS) - 1);

function mayBeKnown(filter: Uint8Array, hash: number): boolean {
  const slot = filterSlot(hash);
  return (filter[slot >> 3]! & (1 << (slot & 7))) !== 0;
}

function readWords(text: string, vocabulary: Map<string, number>, grow: boolean): Words {
  const starts = newInt32List();
  const ends = newInt32List();
  const ids = newInt32List();
  const weights = newInt32List();
  let unknownRun = 0;
  const entry = (start: number, end: number, id: number, weight: number) => {
    pushInt32(starts, start);
    pushInt32(ends, end);
    pushInt32(ids, id);
    pushInt32(weights, weight);
  };
  // Lower-casing the whole text once is cheaper than word by word, when it keeps every offset.
  const lower = text.toLowerCase();
  const sameOffsets = lower.length === text.length;
  // Most words of an answer are not the prompt's: only a word whose hash a prompt word has is cut out
  // and looked up (cutting out every word of a long answer was most of this rule's time).
  const known = !grow && sameOffsets ? knownHashes(vocabulary) : undefined;
  let i = 0;
  while (i < text.length) {
    if (!isWordChar(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    while (i < text.length && isWordChar(text.charCodeAt(i))) i++;
    let id: number | undefined;
    if (!known || mayBeKnown(known, wordHash(lower, start, i))) {
      const word = sameOffsets ? lower.slice(start, i) : text.slice(start, i).toLowerCase();
      id = vocabulary.get(word);
      if (id === undefined && grow) {
        id = vocabulary.size;
        vocabulary.set(word, id);
      }
    }
    if (id === undefined) {
      unknownRun++;
      continue;
    }
    if (unknownRun > 0) entry(-1, -1, -1, unknownRun);
    unknownRun = 0;
    entry(start, i, id, 1);
  }
  if (unknownRun > 0) entry(-1, -1, -1, unknownRun);
  return { starts: int32View(starts), ends: int32View(ends), ids: int32View(ids), weights: int32View(weights) };
}

const BASE = 1_000_003;
const MOD = 2_147_483_647;

/**
 * Rolling polynomial hashes of every window of k ids; windows holding an unknown word (-1) are NaN.
 * The hash rolls only within runs of known words: an answer's words are mostly not the prompt's, and
 * those cost nothing.
 */
function windowHashes(ids: Int32Array, k: number): Float64Array {
  const hashes = new Float64Array(Math.max(0, ids.length - k + 1)).fill(Number.NaN);
  let power = 1;
  for (let i = 1; i < k; i++) power = (power * BASE) % MOD;
  let hash = 0;
  let run = 0;
  // Products stay below 2^53: hash < 2^31 and BASE < 2^20; (id + 1) * power < 2^20 * 2^31.
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    if (id < 0) {
      hash = 0;
      run = 0;
      continue;
    }
    if (run >= k) hash = (hash - (((ids[i - k]! + 1) * power) % MOD) + MOD) % MOD;
    hash = (hash * BASE + (id + 1)) % MOD;
    run++;
    if (run >= k) hashes[i - k + 1] = hash;
  }
  return hashes;
}

function sameWindow(a: Int32Array, i: number, b: Int32Array, j: number, k: number): boolean {
  for (let x = 0; x < k; x++) if (a[i + x] !== b[j + x]) return false;
  return true;
}

/** Leaked spans of `answer` copied from `prompt`. */
export function findPromptLeaks(answer: string, prompt: string): PiiCandidate[] {
  const vocabulary = new Map<string, number>();
  const source = readWords(prompt, vocabulary, true);
  const total = source.ids.length;
  let k = LEAK_MIN_WORDS;
  if (total < LEAK_MIN_WORDS) {
    if (total < SHORT_PROMPT_MIN_WORDS || prompt.trim().length < SHORT_PROMPT_MIN_CHARS) return [];
    k = total;
  }
  const target = readWords(answer, vocabulary, false);
  if (target.ids.length < k) return [];

  const promptWindows = new Map<number, number[]>();
  const sourceHashes = windowHashes(source.ids, k);
  sourceHashes.forEach((hash, i) => {
    const list = promptWindows.get(hash);
    if (list) list.push(i);
    else promptWindows.set(hash, [i]);
  });
  const covered = new Uint8Array(target.ids.length);
  const targetHashes = windowHashes(target.ids, k);
  for (let i = 0; i < targetHashes.length; i++) {
    const hash = targetHashes[i]!;
    if (Number.isNaN(hash)) continue;
    const list = promptWindows.get(hash);
    if (!list?.some((j) => sameWindow(target.ids, i, source.ids, j, k))) continue;
    covered.fill(1, i, i + k);
  }

  const out: PiiCandidate[] = [];
  let w = 0;
  while (w < covered.length) {
    if (!covered[w]) {
      w++;
      continue;
    }
    const first = w;
    let last = w;
    let gap = 0;
    for (w = w + 1; w < covered.length; w++) {
      if (covered[w]) {
        last = w;
        gap = 0;
      } else if ((gap += target.weights[w]!) > MAX_GAP_WORDS) break;
    }
    let words = 0;
    for (let x = first; x <= last; x++) words += target.weights[x]!;
    const score = words >= 20 || words >= total / 2 ? 0.95 : 0.8;
    out.push({ start: target.starts[first]!, end: target.ends[last]!, score });
    w = last + 1;
  }
  return out;
}

export const systemPromptLeakRule: PiiRule = {
  type: 'SYSTEM_PROMPT_LEAK',
  scan(input) {
    return input.systemPrompt ? findPromptLeaks(input.text, input.systemPrompt) : [];
  },
  mask: () => '[SYSTEM_PROMPT]',
};
