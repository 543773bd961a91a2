// The `@` signs that are part of an address — an e-mail address's `local@host.tld` or the userinfo of
// a URL (`postgres://user:pass@db`) — and so not leetspeak for `a` (deobfuscate-leet.ts): one e-mail
// address in a prompt made it "leetspeak" (`john@example` is shaped like `h3llo`) and cost it a whole
// second view. One forward scan, no regex.
import { THREAT_CHAR, THREAT_CHAR_TABLE } from './char-classes.js';

const AT = 0x40;
const DOT = 0x2e;
const HYPHEN = 0x2d;
const COLON = 0x3a;
const SLASH = 0x2f;
const WORD = THREAT_CHAR.letter | THREAT_CHAR.number;

/** A letter or number (any script), as the local part and the labels of a domain may hold. */
const isWord = (c: number): boolean => (THREAT_CHAR_TABLE[c]! & WORD) !== 0;
const isLetter = (c: number): boolean => (THREAT_CHAR_TABLE[c]! & THREAT_CHAR.letter) !== 0;

// What besides letters and numbers a local part ends with before its `@` (`first.last@`, `a_b@`,
// `name+tag@`, `x-y@`).
const LOCAL_PUNCTUATION = new Set(['.', '_', '%', '+', '-'].map((c) => c.charCodeAt(0)));
// The characters of a URL's authority (userinfo, host, port) besides letters and numbers: RFC 3986's
// unreserved, sub-delims, `%`, `:` and `@`, and `[` `]` for IPv6 hosts. Anything else ends it.
const AUTHORITY_PUNCTUATION = new Set([..."-._~!$&'()*+,;=%:@[]"].map((c) => c.charCodeAt(0)));

/**
 * The end of the domain `host.tld` that starts at `from` (labels of letters, numbers and inner
 * hyphens, two or more, joined by single dots, the last one two or more letters), or -1 when what
 * starts there is not one. It reads up to the first character that cannot be in a domain (an `@`
 * included), so the scans from the `@` signs of a text read each character at most once.
 */
function domainEnd(codes: Uint16Array, length: number, from: number): number {
  let labels = 0;
  let i = from;
  let lastLabelLetters = true;
  let lastLabelLength = 0;
  for (;;) {
    const start = i;
    let letters = true;
    while (i < length && (isWord(codes[i]!) || (codes[i] === HYPHEN && i > start))) {
      if (!isLetter(codes[i]!)) letters = false;
      i++;
    }
    if (i === start || codes[i - 1] === HYPHEN) return -1;
    labels++;
    lastLabelLetters = letters;
    lastLabelLength = i - start;
    if (i + 1 < length && codes[i] === DOT && isWord(codes[i + 1]!)) {
      i++;
      continue;
    }
    break;
  }
  return labels >= 2 && lastLabelLetters && lastLabelLength >= 2 ? i : -1;
}

/**
 * Calls `visit` with the index of each `@` of the code units [0, length) of `codes` that is part of
 * an address, in increasing order: one that joins a local part (ending in a letter, number or one of
 * `. _ % + -`) to a domain with a dot and a top-level label of letters (`john@example.com`, also
 * `иван@почта.рф`), or one inside a URL's authority (after `://`, before the path). `h@ck`, `@ll`,
 * `p@ssw0rd` and `a@b` are not addresses.
 */
export function forEachThreatAddressAt(codes: Uint16Array, length: number, visit: (at: number) => void): void {
  let inAuthority = false;
  for (let i = 0; i < length; i++) {
    const c = codes[i]!;
    if (c === COLON && i + 2 < length && codes[i + 1] === SLASH && codes[i + 2] === SLASH) {
      inAuthority = true;
      i += 2;
      continue;
    }
    if (inAuthority && !isWord(c) && !AUTHORITY_PUNCTUATION.has(c)) inAuthority = false;
    if (c !== AT) continue;
    if (inAuthority) {
      visit(i);
      continue;
    }
    if (i === 0) continue;
    const before = codes[i - 1]!;
    if (!isWord(before) && !LOCAL_PUNCTUATION.has(before)) continue;
    if (domainEnd(codes, length, i + 1) !== -1) visit(i);
  }
}
