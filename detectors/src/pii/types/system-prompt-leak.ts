// SYSTEM_PROMPT_LEAK: the answer repeats a long enough run of the request's system prompt. Both texts
// are read as words (letters and digits of any script, lower-cased), so changes of case, whitespace,
// line breaks and punctuation do not hide a copy. A leak is a run of at least 8 consecutive words of the
// prompt (the whole prompt when it is shorter, if it has at least 5 words and 30 characters): short
// common phrases ("you are a helpful") are not a leak. Matches separated by at most 3 other words are
// one leak (a copy with a word changed here and there).
// Words are numbered by a vocabulary of the prompt; windows of the answer are compared by a rolling hash
// and checked word by word, so the cost is linear in both texts.
// Mask (our choice): the whole span becomes "[SYSTEM_PROMPT]".
import type { PiiCandidate, PiiRule } from '../rule.js';
import { isWordChar } from '../text/chars.js';

export const LEAK_MIN_WORDS = 8;
const SHORT_PROMPT_MIN_WORDS = 5;
const SHORT_PROMPT_MIN_CHARS = 30;
const MAX_GAP_WORDS = 3;

interface Words {
  starts: number[];
  ends: number[];
  /** Vocabulary ids; -1 for words of the answer the prompt does not have. */
  ids: number[];
}

function readWords(text: string, vocabulary: Map<string, number>, grow: boolean): Words {
  const starts: number[] = [];
  const ends: number[] = [];
  const ids: number[] = [];
  // Lower-casing the whole text once is cheaper than word by word, when it keeps every offset.
  const lower = text.toLowerCase();
  const sameOffsets = lower.length === text.length;
  let i = 0;
  while (i < text.length) {
    if (!isWordChar(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    while (i < text.length && isWordChar(text.charCodeAt(i))) i++;
    const word = sameOffsets ? lower.slice(start, i) : text.slice(start, i).toLowerCase();
    let id = vocabulary.get(word);
    if (id === undefined && grow) {
      id = vocabulary.size;
      vocabulary.set(word, id);
    }
    starts.push(start);
    ends.push(i);
    ids.push(id ?? -1);
  }
  return { starts, ends, ids };
}

const BASE = 1_000_003;
const MOD = 2_147_483_647;

/** Rolling polynomial hashes of every window of k ids; windows holding an unknown word (-1) are NaN. */
function windowHashes(ids: readonly number[], k: number): Float64Array {
  const hashes = new Float64Array(Math.max(0, ids.length - k + 1)).fill(Number.NaN);
  let power = 1;
  for (let i = 1; i < k; i++) power = (power * BASE) % MOD;
  let hash = 0;
  let unknown = 0;
  // Products stay below 2^53: hash < 2^31 and BASE < 2^20; (id + 1) * power < 2^20 * 2^31.
  for (let i = 0; i < ids.length; i++) {
    if (i >= k) {
      const old = ids[i - k]!;
      if (old < 0) unknown--;
      hash = (hash - (((old + 1) * power) % MOD) + MOD) % MOD;
    }
    const id = ids[i]!;
    if (id < 0) unknown++;
    hash = (hash * BASE + (id + 1)) % MOD;
    if (i >= k - 1 && unknown === 0) hashes[i - k + 1] = hash;
  }
  return hashes;
}

function sameWindow(a: readonly number[], i: number, b: readonly number[], j: number, k: number): boolean {
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
      } else if (++gap > MAX_GAP_WORDS) break;
    }
    const words = last - first + 1;
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
