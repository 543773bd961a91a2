// Undoing the cheap obfuscations attackers use to slip past n-gram models: leetspeak ("1gn0r3"),
// spaced-out letters ("i g n o r e") and instructions wrapped in base64. Each produces an extra view of
// the prompt that is scored like plain text; the prompt's score is the maximum over its views.
import { isThreatSurrogate, THREAT_CHAR, THREAT_CHAR_TABLE, threatCharWidth } from './char-classes.js';
import { collapseThreatWhitespace, lowerThreatText, stripThreatInvisibles } from './normalize.js';

const LEET: Readonly<Record<string, string>> = {
  '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '@': 'a', $: 's', '!': 'i', '|': 'l', '€': 'e',
};
const LEET_TOKEN = /[\p{L}\p{N}@$!|€]+/gu;
const LETTER = /\p{L}/u;
const HAS_LEET = /[0134578@$!|€]/;
const MAX_LEET_WORD = 16;

interface LeetCounts {
  letters: number;
  /** Leet characters with a letter on both sides ("h3llo"). */
  flanked: number;
  /** Leet characters with a letter on at least one side. */
  touching: number;
}

function leetCounts(chars: readonly string[]): LeetCounts {
  const counts = { letters: 0, flanked: 0, touching: 0 };
  chars.forEach((ch, i) => {
    if (LETTER.test(ch)) {
      counts.letters++;
      return;
    }
    if (LEET[ch] === undefined) return;
    const before = i > 0 && LETTER.test(chars[i - 1]!);
    const after = i + 1 < chars.length && LETTER.test(chars[i + 1]!);
    if (before && after) counts.flanked++;
    if (before || after) counts.touching++;
  });
  return counts;
}

/**
 * Leetspeak mapped back to letters. A prompt counts as leetspeak when some token has a leet character
 * between two letters ("h3llo") or two touching letters ("pr0mp7"); then every token where a leet
 * character touches a letter is mapped ("4ll", "th3"). Prompts without such a token ("the 1st",
 * "gpt-4", "mp3", "win10") are left as they are. Returns the text and how many tokens changed.
 */
export function undoThreatLeetspeak(text: string): { text: string; count: number } {
  // Long tokens are identifiers, hashes or base64, not words written in leetspeak. A token without a
  // leet character counts neither flanked nor touching ones: skipped before it is split.
  if (!HAS_LEET.test(text) || !hasLeetToken(text)) return { text, count: 0 };
  let count = 0;
  const out = text.replace(LEET_TOKEN, (token) => {
    if (!HAS_LEET.test(token)) return token;
    const chars = [...token];
    if (chars.length > MAX_LEET_WORD) return token;
    const c = leetCounts(chars);
    if (c.letters === 0 || c.touching === 0) return token;
    count++;
    return chars.map((ch) => LEET[ch] ?? ch).join('');
  });
  return { text: out, count };
}

const LEET_ASCII = new Uint8Array(128);
for (const ch of '0134578@$!|') LEET_ASCII[ch.charCodeAt(0)] = 1;
const isLeetCode = (c: number): boolean => (c < 128 ? LEET_ASCII[c] === 1 : c === 0x20ac); // € is the one non-ASCII one
const LEET_TOKEN_CHAR = /[\p{L}\p{N}]/u;

/**
 * Whether some token of LEET_TOKEN is leetspeak (see undoThreatLeetspeak). Tokens are found with the
 * character table and only those with a leet character are split: matchAll over every token of an
 * ordinary prompt with a digit in it cost more than the rest of the de-obfuscation.
 */
function hasLeetToken(text: string): boolean {
  const tokenFlags = THREAT_CHAR.letter | THREAT_CHAR.number;
  let i = 0;
  while (i < text.length) {
    const start = i;
    let leet = false;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      let width: number;
      if (isLeetCode(c)) {
        leet = true;
        width = 1;
      } else if (!isThreatSurrogate(c)) width = (THREAT_CHAR_TABLE[c]! & tokenFlags) !== 0 ? 1 : 0;
      else width = threatCharWidth(text, i, tokenFlags, LEET_TOKEN_CHAR);
      if (width === 0) break;
      i += width;
    }
    if (i === start) {
      i++;
      continue;
    }
    // Long tokens are identifiers, hashes or base64, not words written in leetspeak.
    if (!leet || i - start > MAX_LEET_WORD) continue;
    const c = leetCounts([...text.slice(start, i)]);
    if (c.letters >= 2 && (c.flanked > 0 || c.touching >= 2)) return true;
  }
  return false;
}

// Three or more single letters separated by the same one-character separator ("i g n o r e",
// "s.y.s.t.e.m"). Two spaces, or a different separator, end a run: that is how spaced-out text marks
// word boundaries.
const SPACED_RUN = /(?<![\p{L}\p{N}])\p{L}([ ._*\-])\p{L}(?:\1\p{L})+(?![\p{L}\p{N}])/gu;

/** Spaced-out letters joined into words; returns the text and how many runs were joined. */
export function joinThreatSpacedLetters(text: string): { text: string; count: number } {
  if (!mayHaveSpacedRun(text)) return { text, count: 0 };
  let count = 0;
  const out = text.replace(SPACED_RUN, (run) => {
    count++;
    return run.replace(/[ ._*\-]/g, '');
  });
  return { text: out, count };
}

/**
 * A cheap test that never misses a SPACED_RUN: a separator after a letter that follows no letter or
 * number, a letter after it and the same separator one or two code units later. It rules out ordinary
 * prose in one table scan; the lookbehind regex costs a Unicode test at every position.
 */
function mayHaveSpacedRun(text: string): boolean {
  const table = THREAT_CHAR_TABLE;
  for (let j = 1; j + 2 < text.length; j++) {
    const separator = text.charCodeAt(j);
    if (separator !== 0x20 && separator !== 0x2e && separator !== 0x5f && separator !== 0x2a && separator !== 0x2d) continue;
    if (text.charCodeAt(j + 2) !== separator && text.charCodeAt(j + 3) !== separator) continue;
    const before = text.charCodeAt(j - 1);
    const after = text.charCodeAt(j + 1);
    if (!isThreatSurrogate(after) && (table[after]! & THREAT_CHAR.letter) === 0) continue;
    if (isThreatSurrogate(before)) return true;
    if ((table[before]! & THREAT_CHAR.letter) === 0) continue;
    if (j >= 2 && (table[text.charCodeAt(j - 2)]! & (THREAT_CHAR.letter | THREAT_CHAR.number)) !== 0) continue;
    return true;
  }
  return false;
}

const BASE64_CHAR = new Uint8Array(128);
for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-') BASE64_CHAR[ch.charCodeAt(0)] = 1;
const BASE64_MIN_BLOCK = 20;

/**
 * The matches of /[A-Za-z0-9+/_-]{20,}={0,2}/g, found as runs of a 128-entry table (a run of 20 or
 * more is a match from its start, and no shorter run holds one), without a regex step per character.
 */
function base64Blocks(text: string): string[] {
  const blocks: string[] = [];
  const isBase64 = (i: number): boolean => {
    const c = text.charCodeAt(i);
    return c < 128 && BASE64_CHAR[c] === 1;
  };
  let i = 0;
  while (i < text.length) {
    if (!isBase64(i)) {
      i++;
      continue;
    }
    const start = i;
    while (i < text.length && isBase64(i)) i++;
    if (i - start < BASE64_MIN_BLOCK) continue;
    const end = i;
    while (i < text.length && i - end < 2 && text.charCodeAt(i) === 0x3d) i++;
    blocks.push(text.slice(start, i));
  }
  return blocks;
}

export interface ThreatBase64Options {
  /** At most this many blocks are decoded per prompt (bounds the work on hostile input). */
  maxBlocks: number;
  /** Blocks longer than this are skipped. */
  maxBlockChars: number;
}

export const THREAT_BASE64_DEFAULTS: ThreatBase64Options = { maxBlocks: 8, maxBlockChars: 64 * 1024 };

/**
 * Base64 blocks (standard or URL-safe alphabet, 20+ characters) that decode to readable UTF-8 text.
 * Identifiers, hashes and ordinary long words decode to binary noise and are dropped by the strict
 * UTF-8 decoder or the printable-text test.
 */
export function decodeThreatBase64Blocks(text: string, options: ThreatBase64Options = THREAT_BASE64_DEFAULTS): string[] {
  const out: string[] = [];
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for (const block of base64Blocks(text)) {
    if (out.length >= options.maxBlocks) break;
    if (block.length > options.maxBlockChars) continue;
    // Mixed case or digits: a real encoding, not a long lower-case word or an ALL-CAPS constant.
    if (!/[a-z]/.test(block) || !/[A-Z0-9]/.test(block)) continue;
    let decoded: string;
    try {
      decoded = decoder.decode(Buffer.from(block.replace(/-/g, '+').replace(/_/g, '/'), 'base64'));
    } catch {
      continue;
    }
    if (readableText(decoded)) out.push(decoded);
  }
  return out;
}

function readableText(text: string): boolean {
  if (text.length < 8) return false;
  let readable = 0;
  let letters = 0;
  for (const ch of text) {
    if (/[\p{L}\p{N}\p{P}\p{Zs}\n\t]/u.test(ch)) readable++;
    if (/\p{L}/u.test(ch)) letters++;
  }
  const total = [...text].length;
  return readable / total >= 0.95 && letters / total >= 0.5 && /\s/.test(text);
}

export interface ThreatTextViews {
  /** The normalised prompt (normalizeThreatText). */
  base: string;
  /** Leetspeak and spaced-out letters undone, normalised; only when it differs from `base`. */
  deobfuscated?: string;
  /** Normalised text of the base64 blocks that decoded to readable text (one level deep). */
  decoded: string[];
  /** How many leet tokens, spaced-letter runs and decoded base64 blocks were found. */
  obfuscation: { leet: number; spaced: number; base64: number };
}

/** The views of a prompt that are scored: the normalised text, its de-obfuscated form, decoded base64. */
export function threatTextViews(prompt: string, base64Options: ThreatBase64Options = THREAT_BASE64_DEFAULTS): ThreatTextViews {
  const stripped = stripThreatInvisibles(prompt);
  const lowered = lowerThreatText(stripped);
  const base = collapseThreatWhitespace(lowered);
  const spaced = joinThreatSpacedLetters(lowered);
  const leet = undoThreatLeetspeak(spaced.text);
  const deobfuscated = leet.text === lowered ? base : collapseThreatWhitespace(leet.text);
  const decoded = decodeThreatBase64Blocks(stripped, base64Options).map((text) => collapseThreatWhitespace(lowerThreatText(text)));
  return {
    base,
    ...(deobfuscated !== base ? { deobfuscated } : {}),
    decoded,
    obfuscation: { leet: leet.count, spaced: spaced.count, base64: decoded.length },
  };
}
