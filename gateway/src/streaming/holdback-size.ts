// How many characters of a streamed answer must stay unreleased so that no rule of the profile can
// still match across them: the longest text a detector needs before it recognises a value, keyword
// or pattern. A profile may set it (response_scanning.stream_holdback_chars).
import { contentSafetyOnResponses } from '../pipeline/guard-text.js';
import { OUTPUT_ONLY_PII_TYPES, INPUT_PII_TYPES, type ContentPolicy, type PiiType, type Profile } from '@palisade/core';
import { compileRulePrefixes, KEYWORD_SLACK, longestFixedRuleChars, type RulePrefixes } from './rule-prefixes.js';

export { REGEX_RULE_CHARS } from './rule-prefixes.js';

/**
 * Characters from the start of a value until the PII detector recognises it (a match still growing
 * at the tail stays held whole, so a long key need not fit): the printed layouts of numbers with a
 * label, an address with a full local part and first label, a key's prefix and enough body.
 */
export const PII_RECOGNITION_CHARS: Readonly<Record<Exclude<PiiType, 'SYSTEM_PROMPT_LEAK'>, number>> = {
  CREDIT_CARD: 40,
  INN: 32,
  SNILS: 24,
  PHONE_NUMBER: 40,
  EMAIL: 140,
  PASSPORT_RF: 48,
  API_KEY: 128,
  GITHUB_TOKEN: 96,
  JWT: 256,
  DATABASE_URL: 192,
  PRIVATE_KEY: 160,
};

/** Released text each window keeps before the tail: the detectors read up to five words of context before a number. */
export const WINDOW_CONTEXT_CHARS = 128;

/** The detector reports a leak at 8 consecutive words of the system prompt (README of the PII detector). */
const LEAK_WORDS = 8;

/** The longest run of LEAK_WORDS words of the system prompt, doubled for the whitespace and punctuation an answer may add. */
export function leakRecognitionChars(systemPrompt: string): number {
  const words = [...systemPrompt.matchAll(/[\p{L}\p{N}]+/gu)];
  if (words.length === 0) return 0;
  const span = LEAK_WORDS;
  if (words.length <= span) return 2 * systemPrompt.length + KEYWORD_SLACK;
  let longest = 0;
  for (let i = 0; i + span <= words.length; i += 1) {
    const first = words[i]!;
    const last = words[i + span - 1]!;
    longest = Math.max(longest, last.index! + last[0].length - first.index!);
  }
  return 2 * longest + KEYWORD_SLACK;
}

export function holdbackChars(profile: Profile, policies: readonly ContentPolicy[], systemPrompt: string): number {
  const settings = profile.response_scanning;
  if (settings.stream_holdback_chars !== null) return settings.stream_holdback_chars;
  let longest = longestFixedRuleChars(policies);
  if (settings.pii_mode !== 'disabled') {
    const types: readonly PiiType[] = settings.pii_types.length ? settings.pii_types : [...INPUT_PII_TYPES, ...OUTPUT_ONLY_PII_TYPES];
    for (const type of types) {
      longest = Math.max(longest, type === 'SYSTEM_PROMPT_LEAK' ? leakRecognitionChars(systemPrompt) : PII_RECOGNITION_CHARS[type]);
    }
  }
  return longest;
}

/**
 * Why the profile needs the whole answer before anything is sent (null: it can be scanned as it
 * streams): content safety judges the whole answer; allowlist and language policies too.
 */
export function bufferingReason(profile: Profile, policies: readonly ContentPolicy[]): string | null {
  if (profile.response_scanning.streaming === 'buffer') return 'the profile asks for buffered streams';
  if (contentSafetyOnResponses(profile)) return 'content safety on responses needs the whole answer';
  if (policies.some((p) => p.type !== 'blocklist')) return 'allowlist and language policies need the whole answer';
  return null;
}

/**
 * How many characters at the end of a window may still be the start of a value not yet recognised,
 * for the PII types whose values are made of few kinds of characters: a token (e-mail, keys, JWT,
 * database URLs) is one run without whitespace, a number (card, INN, SNILS, phone, passport) one run
 * of digits and separators, a private key starts with a `-----BEGIN` line, a system prompt copy with
 * its first words. Keywords and regexes: the end that can begin a match (rule-prefixes.ts); a rule
 * the automaton does not cover keeps its fixed length.
 */
export type TailNeed = (window: string) => number;

/** Characters a number of the PII table may contain ("45 08 № 123456", "8 (916) 123-45-67"). */
const NUMBER_CHARS = /[\d\s\-\u2010-\u2015().+№#/]/u;
const TOKEN_TYPES = new Set<PiiType>(['EMAIL', 'API_KEY', 'GITHUB_TOKEN', 'JWT']);
const NUMBER_TYPES = new Set<PiiType>(['CREDIT_CARD', 'INN', 'SNILS', 'PHONE_NUMBER', 'PASSPORT_RF']);
const PEM_START = '-----BEGIN';

/** Length of the window's trailing run of characters matching `test`, at most `cap`. */
function trailingRun(window: string, test: (c: string) => boolean, cap: number): number {
  let i = window.length;
  while (i > 0 && window.length - i < cap && test(window[i - 1]!)) i -= 1;
  return window.length - i;
}

/** A number starts with a digit, `+` or `(`: separators before the first of them cannot be part of one. */
const NUMBER_START = /[\d+(]/u;

function numberInProgress(window: string): number {
  const run = trailingRun(window, (c) => NUMBER_CHARS.test(c), Number.MAX_SAFE_INTEGER);
  for (let i = window.length - run; i < window.length; i += 1) if (NUMBER_START.test(window[i]!)) return window.length - i;
  return 0;
}

const isSpace = (c: string) => c === ' ' || c === '\n' || c === '\t' || c === '\r' || /\s/u.test(c);

/** The tail a private key in progress needs: from its `-----` on, or a partial `-----BEGIN` at the end. */
function pemNeed(window: string, cap: number): number {
  const from = Math.max(0, window.length - cap);
  const dashes = window.lastIndexOf('-----', window.length);
  if (dashes >= from) return window.length - dashes;
  for (let k = Math.min(PEM_START.length - 1, window.length); k > 0; k -= 1) if (window.endsWith(PEM_START.slice(0, k))) return k;
  return 0;
}

/**
 * A connection string with spaces (`User Id=`) needs its fixed length once an `=` is near; before
 * that, only its first key can be in progress: the word being written. (A first key of two words
 * split at its space is refused as a whole, never sent in part: the guard refuses a finding that
 * starts in released text.)
 */
function connectionStringNeed(window: string, cap: number): number {
  const equals = window.lastIndexOf('=');
  if (equals >= 0 && equals >= window.length - cap) return cap;
  return trailingRun(window, (c) => /[\p{L}\p{N}_]/u.test(c), 64);
}

const WORD = /[\p{L}\p{N}]+/gu;
const ENDS_IN_WORD = /[\p{L}\p{N}]$/u;

function promptWordsOf(systemPrompt: string): string[] {
  return Array.from(systemPrompt.matchAll(WORD), (m) => m[0].toLowerCase());
}

/**
 * A copy of the system prompt in progress: the longest run of the window's last words (fewer than
 * the LEAK_WORDS the detector needs; the last one may be cut) that the prompt holds in a row. Held
 * from its first word; a copy is refused when its 8th word arrives, before any of it left.
 */
function leakInProgress(window: string, prompt: readonly string[]): number {
  const tail = Array.from(window.slice(-LEAK_TAIL_CHARS).matchAll(WORD));
  const words = tail.slice(-LEAK_WORDS).map((m) => m[0].toLowerCase());
  const offset = window.length - Math.min(window.length, LEAK_TAIL_CHARS);
  const partial = ENDS_IN_WORD.test(window);
  for (let k = words.length; k > 0; k -= 1) {
    const run = words.slice(words.length - k);
    for (let j = 0; j + k <= prompt.length; j += 1) {
      let i = 0;
      while (i < k - 1 && prompt[j + i] === run[i]) i += 1;
      if (i < k - 1) continue;
      const last = run[k - 1]!;
      if (partial ? prompt[j + k - 1]!.startsWith(last) : prompt[j + k - 1] === last) {
        return window.length - (offset + tail[tail.length - k]!.index);
      }
    }
  }
  return 0;
}

/** How far back the last LEAK_WORDS words are looked for (words are rarely longer). */
const LEAK_TAIL_CHARS = 512;

/**
 * `rules`: the compiled blocklist rules of `policies` (compiled here when not given; the proxy keeps
 * them per profile and bundle, since building the automaton takes milliseconds).
 */
export function tailNeed(profile: Profile, policies: readonly ContentPolicy[], systemPrompt: string, rules?: RulePrefixes): TailNeed {
  const settings = profile.response_scanning;
  const override = settings.stream_holdback_chars;
  if (override !== null) return () => override;
  const prefixes = rules ?? compileRulePrefixes(policies);
  // A match in progress is held from its start, up to the rules' fixed length (a longer one was never held).
  const ruleCap = longestFixedRuleChars(policies);
  const token = { on: false, cap: 0 };
  const number = { on: false, cap: 0 };
  let pem = 0;
  let connection = 0;
  let leak: string[] | undefined;
  if (settings.pii_mode !== 'disabled') {
    const types: readonly PiiType[] = settings.pii_types.length ? settings.pii_types : [...INPUT_PII_TYPES, ...OUTPUT_ONLY_PII_TYPES];
    for (const type of types) {
      if (type === 'SYSTEM_PROMPT_LEAK') leak = systemPrompt.trim() === '' ? undefined : promptWordsOf(systemPrompt);
      else if (TOKEN_TYPES.has(type)) token.on = true;
      else if (NUMBER_TYPES.has(type)) number.on = true;
      else if (type === 'PRIVATE_KEY') pem = PII_RECOGNITION_CHARS.PRIVATE_KEY;
      else if (type === 'DATABASE_URL') {
        token.on = true;
        connection = PII_RECOGNITION_CHARS.DATABASE_URL;
      }
    }
  }
  // A token or number may be as long as it likes: the run is held whole (up to the window).
  const unbounded = Number.MAX_SAFE_INTEGER;
  return (window) => {
    // Read at each check: the automaton may arrive while the stream runs.
    let need = prefixes.fixed;
    if (prefixes.covered > 0) need = Math.max(need, prefixes.inProgress(window, ruleCap));
    if (token.on) need = Math.max(need, trailingRun(window, (c) => !isSpace(c), unbounded));
    if (number.on) need = Math.max(need, numberInProgress(window));
    if (pem) need = Math.max(need, pemNeed(window, pem));
    if (connection) need = Math.max(need, connectionStringNeed(window, connection));
    if (leak) need = Math.max(need, leakInProgress(window, leak));
    return need;
  };
}
