// EMAIL: RFC 5322 addr-spec in its dot-atom form, as people write addresses: a local part of letters,
// digits and ". _ % + - '" (Unicode letters too, RFC 6531; other rare atext characters such as "=" or
// "/" are left out because in configs they join a key to its value), "@", and a domain of at least two labels
// (letters, digits, hyphens; 1-63 characters, no hyphen at either end) ending in an alphabetic top-level
// domain or an IDN (xn--). Quoted local parts and IP-literal domains are left out, as Presidio does.
// Names that look like addresses but are not: "icon@2x.png" (a file extension is no TLD; extensions that
// are also country domains, such as .ai, .rs, .so, .md, stay addresses), "lodash@4.17.21" (numeric TLD),
// "user@localhost" (no TLD), "https://user:pass@host" and "https://user@host" (URL user info).
// The scan visits each "@" and reads at most 64 characters left and 255 right of it: linear in the text.
// Mask (spec and the team's example): first letter of the local part, "***", domain kept
// ("ivan.petrov@example.com" → "i***@example.com"); the top-level domain is kept as the spec asks.
import type { PiiCandidate, PiiRule } from '../rule.js';
import { isAsciiAlnum, isLetter } from '../text/chars.js';

const MAX_LOCAL = 64;
const MAX_DOMAIN = 253;
const MAX_LABEL = 63;

/** File extensions that are not top-level domains (the ones that are, such as .zip, stay addresses). */
const FILE_EXTENSIONS = new Set([
  'png', 'jpg', 'jpeg', 'gif', 'svg', 'webp', 'bmp', 'ico', 'tif', 'tiff', 'heic', 'js', 'mjs', 'cjs', 'ts', 'tsx',
  'jsx', 'json', 'yaml', 'yml', 'toml', 'txt', 'css', 'scss', 'less', 'htm', 'html', 'xml', 'csv', 'log', 'lock',
  'map', 'exe', 'dll', 'bin', 'tar', 'gz', 'tgz', 'bz2', 'xz', 'rar', 'pdf', 'doc', 'docx', 'xls', 'xlsx',
  'ppt', 'pptx', 'mp3', 'mp4', 'wav', 'avi', 'mkv', 'ogg', 'webm', 'woff', 'woff2', 'ttf', 'otf', 'eot', 'wasm',
  'java', 'class', 'jar', 'kt', 'swift', 'rb', 'php', 'go', 'cpp', 'hpp', 'cs', 'vue', 'svelte',
  'ini', 'cfg', 'conf', 'env', 'bak', 'tmp', 'swp', 'dat', 'db', 'sqlite', 'psd', 'sketch', 'fig',
]);

const isLocalChar = (c: number) =>
  isAsciiAlnum(c) || c === 46 /* . */ || c === 95 /* _ */ || c === 37 /* % */ || c === 43 /* + */ || c === 45 /* - */ || c === 39 /* ' */ || (c > 127 && isLetter(c));

const isDomainChar = (c: number) => isAsciiAlnum(c) || c === 45 || c === 46 || (c > 127 && isLetter(c));

function validLabel(label: string): boolean {
  if (label.length === 0 || label.length > MAX_LABEL) return false;
  return label.charCodeAt(0) !== 45 && label.charCodeAt(label.length - 1) !== 45;
}

function validTld(label: string): boolean {
  if (label.length < 2) return false;
  const lower = label.toLowerCase();
  if (lower.startsWith('xn--')) return label.length > 4;
  for (let i = 0; i < label.length; i++) if (!isLetter(label.charCodeAt(i))) return false;
  return !FILE_EXTENSIONS.has(lower);
}

/** "https://user:pass@host", "https://user@host": the part before "@" is URL user info, not a mailbox. */
function urlCredentials(text: string, localStart: number): boolean {
  if (localStart >= 3 && text.startsWith('://', localStart - 3)) return true;
  if (localStart === 0 || text.charCodeAt(localStart - 1) !== 58 /* : */) return false;
  const from = Math.max(0, localStart - 256);
  for (let i = localStart - 2; i >= from + 2; i--) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 10 || c === 9 || c === 34 || c === 39) return false;
    if (c === 47 && text.charCodeAt(i - 1) === 47 && text.charCodeAt(i - 2) === 58) return true; // "://"
  }
  return false;
}

/** The address around the "@" at `at`, or undefined. Cheap checks first: most "@" are no address. */
function addressAt(text: string, at: number): PiiCandidate | undefined {
  // Domain: forward over domain characters (at most 253), without a trailing dot or dash.
  let right = at + 1;
  while (right < text.length && isDomainChar(text.charCodeAt(right)) && right - at <= MAX_DOMAIN) right++;
  while (right > at + 1 && (text.charCodeAt(right - 1) === 46 || text.charCodeAt(right - 1) === 45)) right--;
  const lastDot = text.lastIndexOf('.', right - 1);
  if (lastDot <= at + 1 || right - lastDot - 1 < 2) return undefined;
  // Local part: back over local characters, at most 64 (a longer run is not an address).
  let left = at;
  while (left > 0 && isLocalChar(text.charCodeAt(left - 1))) {
    left--;
    if (at - left > MAX_LOCAL) return undefined;
  }
  if (left === at) return undefined;

  let local = text.slice(left, at);
  // "see...ivan@x.ru" and "--ivan@x.ru": the address starts after the punctuation.
  const doubleDot = local.lastIndexOf('..');
  if (doubleDot !== -1) {
    left += doubleDot + 2;
    local = text.slice(left, at);
  }
  // A leading quote is the text's ("'ivan@x.ru'"); one inside the local part is the name's ("o'brien").
  while (local.length > 0 && ".+-%'".includes(local[0]!)) {
    left++;
    local = local.slice(1);
  }
  if (local.length === 0 || local.endsWith('.')) return undefined;
  if (urlCredentials(text, left)) return undefined;

  const labels = text.slice(at + 1, right).split('.');
  const empty = labels.indexOf('');
  if (empty !== -1) labels.length = empty;
  if (labels.length < 2 || !labels.every(validLabel) || !validTld(labels[labels.length - 1]!)) return undefined;
  const end = at + 1 + labels.join('.').length;
  // "a@b.com@c": an "@" right after is not an address boundary.
  if (end < text.length && text.charCodeAt(end) === 64) return undefined;
  return { start: left, end, score: 0.95 };
}

export const emailRule: PiiRule = {
  type: 'EMAIL',
  scan({ text }) {
    const out: PiiCandidate[] = [];
    for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
      const found = addressAt(text, at);
      if (found) out.push(found);
    }
    return out;
  },
  mask(value) {
    const at = value.lastIndexOf('@');
    if (at <= 0) return '***';
    return `${value[0]}***${value.slice(at)}`;
  },
};
