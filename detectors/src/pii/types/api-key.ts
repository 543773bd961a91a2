// API_KEY: keys of the vendors people paste most, each recognised by its documented prefix and alphabet,
// plus secrets assigned to a key-like name in configs and headers ("api_key: …", "X-API-Key: …",
// "Authorization: Bearer …"). A vendor key must be a whole run of [A-Za-z0-9_-] (so "sk-" inside
// "task-force" or "risk-based" never starts one), fit the vendor's alphabet and length, and look random:
// letters, at least eight distinct characters, and a digit or both letter cases (a digit for long
// bodies and for the bare "sk-"), so "sk-your-key-here" and "AKIAXXXXXXXXXXXXXXXX" are not keys.
// GitHub tokens are their own type (github-token.ts).
// Mask (spec): the vendor prefix kept, every other character replaced by "*"; a secret found by its
// key name has no vendor prefix and is masked whole.
import type { PiiCandidate, PiiRule } from '../rule.js';
import { isAsciiAlnum, isDigit, isHexDigit, isTokenChar, toAsciiLower } from '../text/chars.js';
import { longestAlnumRun, looksRandom } from '../text/randomness.js';
import { prefixAlternation } from '../text/prefix-regex.js';
import { maskAfter } from '../text/mask-text.js';

type Alphabet = 'token' | 'alnum' | 'upper' | 'hex';

interface VendorKey {
  vendor: string;
  prefix: string;
  /** Length of the part after the prefix. */
  min: number;
  max: number;
  alphabet: Alphabet;
}

const key = (vendor: string, prefix: string, min: number, max: number, alphabet: Alphabet): VendorKey => ({ vendor, prefix, min, max, alphabet });

/** Longest prefixes first, so "sk-ant-" and "sk-proj-" win over "sk-". */
export const VENDOR_KEYS: readonly VendorKey[] = [
  key('anthropic', 'sk-ant-', 32, 250, 'token'),
  ...['sk-proj-', 'sk-svcacct-', 'sk-admin-', 'sk-None-'].map((p) => key('openai', p, 20, 300, 'token')),
  ...['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_', 'pk_live_', 'pk_test_'].map((p) => key('stripe', p, 16, 247, 'alnum')),
  key('stripe', 'whsec_', 24, 100, 'alnum'),
  ...['xoxb-', 'xoxp-', 'xoxa-', 'xoxr-', 'xoxs-', 'xoxe-', 'xapp-'].map((p) => key('slack', p, 10, 250, 'token')),
  key('google', 'AIza', 35, 35, 'token'),
  ...['AKIA', 'ASIA', 'ABIA', 'ACCA', 'AGPA', 'AIDA', 'AROA', 'AIPA', 'ANPA', 'ANVA', 'APKA'].map((p) => key('aws', p, 16, 16, 'upper')),
  key('huggingface', 'hf_', 30, 40, 'alnum'),
  key('gitlab', 'glpat-', 20, 64, 'token'),
  key('npm', 'npm_', 36, 36, 'alnum'),
  key('groq', 'gsk_', 40, 64, 'alnum'),
  key('xai', 'xai-', 40, 100, 'alnum'),
  key('replicate', 'r8_', 30, 40, 'alnum'),
  key('perplexity', 'pplx-', 40, 64, 'alnum'),
  key('digitalocean', 'dop_v1_', 64, 64, 'hex'),
  ...['shpat_', 'shpss_', 'shpca_', 'shppa_'].map((p) => key('shopify', p, 32, 32, 'hex')),
  key('yandex-cloud', 'AQVN', 30, 60, 'token'),
  key('yandex-oauth', 'y0_', 40, 120, 'token'),
  key('mailgun', 'key-', 32, 32, 'hex'),
  key('twilio', 'SK', 32, 32, 'hex'),
  // OpenAI's classic keys, DeepSeek and the many OpenAI-compatible APIs: "sk-" and a random body.
  key('openai-compatible', 'sk-', 20, 200, 'token'),
].sort((a, b) => b.prefix.length - a.prefix.length);

const SLACK_WEBHOOK = 'https://hooks.slack.com/services/';

function alphabetOk(body: string, alphabet: Alphabet): boolean {
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    const ok =
      alphabet === 'token' ? isTokenChar(c) : alphabet === 'alnum' ? isAsciiAlnum(c) : alphabet === 'hex' ? isHexDigit(c) : isDigit(c) || (c >= 65 && c <= 90);
    if (!ok) return false;
  }
  return true;
}

/** The vendor key a whole token run is, if any. */
export function vendorKeyOf(run: string): VendorKey | undefined {
  for (const vendor of VENDOR_KEYS) {
    if (!run.startsWith(vendor.prefix)) continue;
    const body = run.slice(vendor.prefix.length);
    if (body.length < vendor.min || body.length > vendor.max || !alphabetOk(body, vendor.alphabet)) continue;
    // AWS ids are upper case only; long bodies (40+) without a digit are words, not keys.
    const randomness = vendor.alphabet === 'upper' ? looksRandom(body, { minDistinct: 6, require: 'none' }) : looksRandom(body, { require: vendor.min >= 40 || vendor.prefix === 'sk-' ? 'digit' : 'digit-or-mixed-case' });
    if (!randomness) continue;
    // A bare "sk-" is the weakest prefix: demand a long random stretch, which hyphenated words lack.
    if (vendor.prefix === 'sk-' && longestAlnumRun(body) < 16) continue;
    return vendor;
  }
  return undefined;
}

/**
 * Runs of [A-Za-z0-9_-] that start with a vendor prefix. The regex engine finds the prefixes (literal
 * alternatives, then one greedy class run: no backtracking), several times faster than visiting every
 * character in JavaScript; the token boundary before the prefix is checked here, not by a lookbehind,
 * which would run at every position.
 */
const VENDOR_RUN = `${prefixAlternation(VENDOR_KEYS.map((v) => v.prefix))}[A-Za-z0-9_-]*`;

function vendorKeys(text: string, out: PiiCandidate[]): void {
  const runs = new RegExp(VENDOR_RUN, 'g');
  for (let m = runs.exec(text); m !== null; m = runs.exec(text)) {
    const start = m.index;
    const end = start + m[0].length;
    // Inside a longer run ("task-force", "risk-based"): not at a token boundary.
    if (start > 0 && isTokenChar(text.charCodeAt(start - 1))) continue;
    // Twilio's "SK…" and AWS ids are upper-case words too: they must not be glued to a preceding dot.
    if (start > 0 && text.charCodeAt(start - 1) === 46 && isAsciiAlnum(text.charCodeAt(start - 2))) continue;
    const vendor = vendorKeyOf(m[0]);
    if (vendor) out.push({ start, end, score: vendor.prefix === 'sk-' ? 0.9 : 0.95 });
  }
}

/** SendGrid: "SG." + 22 + "." + 43 characters of [A-Za-z0-9_-]. */
function sendgridKeys(text: string, out: PiiCandidate[]): void {
  for (let at = text.indexOf('SG.'); at !== -1; at = text.indexOf('SG.', at + 3)) {
    if (at > 0 && isTokenChar(text.charCodeAt(at - 1))) continue;
    let i = at + 3;
    const first = i;
    while (i < text.length && isTokenChar(text.charCodeAt(i))) i++;
    if (i - first !== 22 || text.charCodeAt(i) !== 46) continue;
    const second = ++i;
    while (i < text.length && isTokenChar(text.charCodeAt(i))) i++;
    if (i - second !== 43) continue;
    out.push({ start: at, end: i, score: 0.95 });
  }
}

/** Telegram bot tokens: the bot id (8-10 digits), ":", then 35 characters starting with "AA". */
function telegramTokens(text: string, out: PiiCandidate[]): void {
  for (let colon = text.indexOf(':AA'); colon !== -1; colon = text.indexOf(':AA', colon + 3)) {
    let start = colon;
    while (start > 0 && colon - start < 11 && isDigit(text.charCodeAt(start - 1))) start--;
    const id = colon - start;
    if (id < 8 || id > 10 || (start > 0 && isTokenChar(text.charCodeAt(start - 1)))) continue;
    let end = colon + 1;
    while (end < text.length && isTokenChar(text.charCodeAt(end))) end++;
    if (end - colon - 1 !== 35 || !looksRandom(text.slice(colon + 1, end))) continue;
    out.push({ start, end, score: 0.95 });
  }
}

/** Slack incoming webhooks carry their secret in the URL path. */
function slackWebhooks(text: string, out: PiiCandidate[]): void {
  for (let at = text.indexOf(SLACK_WEBHOOK); at !== -1; at = text.indexOf(SLACK_WEBHOOK, at + 1)) {
    let i = at + SLACK_WEBHOOK.length;
    while (i < text.length && (isTokenChar(text.charCodeAt(i)) || text.charCodeAt(i) === 47)) i++;
    const path = text.slice(at + SLACK_WEBHOOK.length, i).replace(/\/+$/, '');
    if (path.split('/').length === 3 && path.length >= 30) out.push({ start: at, end: at + SLACK_WEBHOOK.length + path.length, score: 0.95 });
  }
}

// ---- Secrets named by their key ("api_key = …") ----

/** Key names (lower-cased, without "-", "_", ".") whose value is a credential. */
const SECRET_NAME_ENDINGS = ['apikey', 'apisecret', 'apitoken', 'secretkey', 'accesskey', 'accesstoken', 'authtoken', 'refreshtoken', 'clientsecret', 'appsecret', 'privatetoken', 'secret', 'token', 'bearer'];
/** Names that end like a secret but hold paging cursors or counters. */
const NOT_SECRET_NAMES = ['page', 'next', 'continuation', 'cursor', 'sync', 'max', 'count', 'limit'];
/** Values that are instructions or already hidden, not secrets. */
const PLACEHOLDER = /your|xxxx|placeholder|changeme|redacted|dummy|\*\*\*|here|insert|replace/i;
const MAX_NAME = 48;
const MAX_VALUE = 512;
const MIN_VALUE = 16;

const isNameChar = (c: number) => isTokenChar(c) || c === 46;
/** Characters of a secret value; "=" only as base64 padding at its end (see secretValue). */
const isValueChar = (c: number) => isTokenChar(c) || c === 46 || c === 43 || c === 47 || c === 126; /* . + / ~ */
const isQuote = (c: number) => c === 34 || c === 39 || c === 96;
const isBlank = (c: number) => c === 32 || c === 9;

function secretName(name: string): boolean {
  let normal = '';
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c !== 45 && c !== 95 && c !== 46) normal += String.fromCharCode(toAsciiLower(c));
  }
  if (!SECRET_NAME_ENDINGS.some((ending) => normal.endsWith(ending))) return false;
  return !NOT_SECRET_NAMES.some((word) => normal.includes(word));
}

/** The value that starts at `from` (after an optional quote), or undefined. */
function secretValue(text: string, from: number): PiiCandidate | undefined {
  let i = from;
  if (i < text.length && isQuote(text.charCodeAt(i))) i++;
  const start = i;
  while (i < text.length && isValueChar(text.charCodeAt(i)) && i - start <= MAX_VALUE) i++;
  for (let pad = 0; pad < 2 && text.charCodeAt(i) === 61; pad++) i++;
  let end = i;
  while (end > start && (text.charCodeAt(end - 1) === 46 || text.charCodeAt(end - 1) === 44)) end--;
  // Judged by length before it is cut out: a config repeats short values on every line.
  if (end - start < MIN_VALUE || end - start > MAX_VALUE) return undefined;
  const value = text.slice(start, end);
  if (value.startsWith('/') || value.startsWith('.') || PLACEHOLDER.test(value) || !looksRandom(value, { require: 'digit' })) return undefined;
  return { start, end, score: 0.7 };
}

/** The words a secret name ends with, right before its separator (any case). */
const SEPARATED_WORDS = ['key', 'token', 'secret'];

/** `word` (lower-case ASCII) ends at `end`, in any case. */
function endsWithWord(text: string, end: number, word: string): boolean {
  const start = end - word.length;
  if (start < 0) return false;
  for (let i = 0; i < word.length; i++) {
    if (toAsciiLower(text.charCodeAt(start + i)) !== word.charCodeAt(i)) return false;
  }
  return true;
}

/**
 * For a ":" or "=" at `at`: where the secret name before it ends, or -1. The name ends in "key",
 * "token" or "secret", then an optional closing quote and blanks come before the separator. Read
 * backwards from the separator, so each ":" and "=" of a text costs a few reads (a case-insensitive
 * regex of these alternatives took most of this rule's time on configs of many short lines).
 */
function nameEndBefore(text: string, at: number): number {
  let end = at;
  while (end > 0 && isBlank(text.charCodeAt(end - 1))) end--;
  if (end > 0 && isQuote(text.charCodeAt(end - 1))) end--;
  // Their last letters (y, n, t) first: most separators of a text follow none of them.
  const last = text.charCodeAt(end - 1) | 0x20;
  if (last !== 0x79 && last !== 0x6e && last !== 0x74) return -1;
  for (const word of SEPARATED_WORDS) if (endsWithWord(text, end, word)) return end;
  return -1;
}

/** "name: value", "name=value", "\"name\": \"value\"", "name => value", "Bearer value". */
function namedSecrets(text: string, out: PiiCandidate[]): void {
  // Names repeat (every line of a config has its key); each distinct name is judged once per call.
  const names = new Map<string, boolean>();
  const isSecretName = (name: string) => {
    let known = names.get(name);
    if (known === undefined) names.set(name, (known = secretName(name)));
    return known;
  };
  // Between candidates the loop reads a few code units itself (configs of many short lines never leave
  // it), then lets the regex engine's scan find the next separator or "bearer " with test(), which
  // allocates nothing: reading every code unit of prose in JavaScript cost 2 to 3 ns each, most of this
  // rule's time. Both alternatives are literals, so the search stays linear, and it resumes exactly
  // where the loop over every code unit would have.
  const candidates = new RegExp(NAMED_SECRET_CANDIDATE, 'gi');
  const isCandidate = (i: number) => {
    const c = text.charCodeAt(i);
    return c === 58 || c === 61 || ((c === 98 || c === 66) && endsWithWord(text, i + BEARER.length, BEARER));
  };
  for (let i = 0; i < text.length; i++) {
    const byHand = Math.min(text.length, i + SCAN_BY_HAND);
    while (i < byHand && !isCandidate(i)) i++;
    if (i === byHand) {
      if (i === text.length) break;
      candidates.lastIndex = i;
      if (!candidates.test(text)) break;
      const end = candidates.lastIndex;
      const last = text.charCodeAt(end - 1);
      i = last === 58 || last === 61 ? end - 1 : end - BEARER.length;
    }
    const c = text.charCodeAt(i);
    if (c !== 58 && c !== 61) {
      // "Bearer <value>": a word of its own.
      const start = i;
      const after = i + BEARER.length;
      i = after - 1;
      if (start > 0 && isNameChar(text.charCodeAt(start - 1))) continue;
      const found = secretValue(text, after);
      if (found) out.push({ ...found, score: 0.75 });
      continue;
    }
    const nameEnd = nameEndBefore(text, i);
    if (nameEnd < 0) continue;
    // "=>" is one separator.
    const after = c === 61 && text.charCodeAt(i + 1) === 62 ? i + 2 : i + 1;
    i = after - 1;
    // The value after the separator, past blanks; "Authorization: Bearer …" is read at "Bearer ".
    // Read before the name: most separators of a text have no secret-like value, and the name costs a cut.
    let k = after;
    while (k < text.length && isBlank(text.charCodeAt(k))) k++;
    if (endsWithWord(text, k + BEARER.length, BEARER)) continue;
    const found = secretValue(text, k);
    if (!found) continue;
    // The whole name, back from the end of "key"/"token"/"secret".
    let j = nameEnd;
    while (j > 0 && isNameChar(text.charCodeAt(j - 1)) && nameEnd - j <= MAX_NAME) j--;
    if (nameEnd - j < 5 || nameEnd - j > MAX_NAME || !isSecretName(text.slice(j, nameEnd))) continue;
    out.push(found);
  }
}

const BEARER = 'bearer ';
/** A separator, or "bearer " in ASCII letters of any case (as endsWithWord reads it: /i without /u folds no other letter onto ASCII). */
const NAMED_SECRET_CANDIDATE = '[:=]|bearer ';
/** After this many code units without a candidate, the regex engine's scan finds the next one. */
const SCAN_BY_HAND = 16;

const MASK_PREFIXES = [SLACK_WEBHOOK, 'SG.', ...VENDOR_KEYS.map((v) => v.prefix)];

export const apiKeyRule: PiiRule = {
  type: 'API_KEY',
  scan(input) {
    const out: PiiCandidate[] = [];
    vendorKeys(input.text, out);
    sendgridKeys(input.text, out);
    telegramTokens(input.text, out);
    slackWebhooks(input.text, out);
    namedSecrets(input.text, out);
    return out;
  },
  mask(value) {
    const telegram = /^\d{8,10}:/.exec(value);
    if (telegram) return maskAfter(value, telegram[0].length);
    const prefix = MASK_PREFIXES.find((p) => value.startsWith(p)) ?? '';
    return maskAfter(value, prefix.length);
  },
};
