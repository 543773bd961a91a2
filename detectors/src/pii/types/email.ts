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

function validLabel(text: string, start: number, end: number): boolean {
  if (end - start > MAX_LABEL) return false;
  return text.charCodeAt(start) !== 45 && text.charCodeAt(end - 1) !== 45;
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

/**
 * The end of the domain after the "@" at `at` (labels up to the first empty one, at least two, each
 * valid, an alphabetic last one), or -1. Reads at most 254 characters and allocates one slice.
 */
function domainEnd(text: string, at: number): number {
  // Domain: forward over domain characters (at most 253), without a trailing dot or dash.
  let right = at + 1;
  while (right < text.length && isDomainChar(text.charCodeAt(right)) && right - at <= MAX_DOMAIN) right++;
  while (right > at + 1 && (text.charCodeAt(right - 1) === 46 || text.charCodeAt(right - 1) === 45)) right--;
  // The shortest domain is "a.bc".
  if (right - at < 5) return -1;
  let labels = 0;
  let labelStart = at + 1;
  let lastStart = -1;
  let end = -1;
  for (let i = at + 1; i <= right; i++) {
    if (i < right && text.charCodeAt(i) !== 46) continue;
    // An empty label ("a..b") ends the domain: what follows it is not part of the address.
    if (i === labelStart) break;
    if (!validLabel(text, labelStart, i)) return -1;
    labels++;
    lastStart = labelStart;
    end = i;
    labelStart = i + 1;
  }
  if (labels < 2 || !validTld(text.slice(lastStart, end))) return -1;
  // "a@b.com@c": an "@" right after is not an address boundary.
  return end < text.length && text.charCodeAt(end) === 64 ? -1 : end;
}

/** The start of the local part before the "@" at `at`, or -1. Reads at most 65 characters back. */
function localStart(text: string, at: number): number {
  // Local part: back over local characters, at most 64 (a longer run is not an address).
  let left = at;
  while (left > 0 && isLocalChar(text.charCodeAt(left - 1))) {
    left--;
    if (at - left > MAX_LOCAL) return -1;
  }
  // "see...ivan@x.ru" and "--ivan@x.ru": the address starts after the punctuation.
  for (let i = at - 2; i >= left; i--) {
    if (text.charCodeAt(i) === 46 && text.charCodeAt(i + 1) === 46) {
      left = i + 2;
      break;
    }
  }
  // A leading quote is the text's ("'ivan@x.ru'"); one inside the local part is the name's ("o'brien").
  while (left < at && ".+-%'".includes(text[left]!)) left++;
  if (left === at || text.charCodeAt(at - 1) === 46) return -1;
  return urlCredentials(text, left) ? -1 : left;
}

/** The address around the "@" at `at`, or undefined. Cheap checks first: most "@" are no address. */
function addressAt(text: string, at: number): PiiCandidate | undefined {
  const end = domainEnd(text, at);
  if (end === -1) return undefined;
  const start = localStart(text, at);
  return start === -1 ? undefined : { start, end, score: 0.95 };
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
