// PRIVATE_KEY: PEM blocks of private keys: "-----BEGIN <label>-----" where the label ends in
// "PRIVATE KEY" (RSA, EC, DSA, OPENSSH, ENCRYPTED, plain PKCS#8) or is "PGP PRIVATE KEY BLOCK", through
// the matching "-----END <label>-----". A block cut short (an answer that stops mid-key) still counts,
// through the last line of its base64 body, when the body has at least 64 characters. Public keys and
// certificates are not secrets and do not count. Line breaks may be real or JSON-escaped ("\n").
// Each search for an END marker starts after the previous one, so the scan is linear in the text.
// Mask (our choice): the BEGIN and END lines kept, the body replaced by "***".
// A cut-off body runs over its base64 lines (after optional header lines) and stops at anything else.
import type { PiiCandidate, PiiRule } from '../rule.js';
import { isAsciiAlnum } from '../text/chars.js';

const BEGIN = '-----BEGIN ';
const END = '-----END ';
const DASHES = '-----';
const MAX_LABEL = 40;
const MIN_BODY = 64;
/** Labels of private keys: upper-case words ending in PRIVATE KEY (or the PGP block). */
const PRIVATE_LABEL = /^(?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?$/;

const isBase64 = (c: number) => isAsciiAlnum(c) || c === 43 || c === 47 || c === 61;
/** A PEM header line inside the block: "Proc-Type: 4,ENCRYPTED", "DEK-Info: …", "Comment: …". */
const HEADER_LINE = /^[A-Za-z][A-Za-z-]{0,30}: [^\n]{0,200}$/;
const MAX_LINE = 1024;

/** The line break at i ("\n", "\r\n", or a JSON-escaped "\\n"), as its length; 0 when none. */
function lineBreakAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === 10) return 1;
  if (c === 13) return text.charCodeAt(i + 1) === 10 ? 2 : 1;
  if (c === 92 && (text.charCodeAt(i + 1) === 110 || text.charCodeAt(i + 1) === 114)) return text.startsWith('\\r\\n', i) ? 4 : 2;
  return 0;
}

/**
 * The end of the body of a block with no END line: its lines of base64 (after optional header lines and
 * the blank line that follows them), up to the first line that is something else.
 */
function truncatedBodyEnd(text: string, from: number): number | undefined {
  let i = from + lineBreakAt(text, from);
  let base64 = 0;
  let end = from;
  let headers = false;
  while (i < text.length) {
    let j = i;
    let solid = true;
    while (j < text.length && lineBreakAt(text, j) === 0 && j - i <= MAX_LINE) {
      if (!isBase64(text.charCodeAt(j))) solid = false;
      j++;
    }
    if (j === i) {
      // A blank line ends the body, except the one after the header lines.
      if (!headers || base64 > 0) break;
    } else if (solid) {
      base64 += j - i;
      end = j;
    } else if (base64 === 0 && HEADER_LINE.test(text.slice(i, j))) {
      headers = true;
    } else break;
    const step = lineBreakAt(text, j);
    if (step === 0) break;
    i = j + step;
  }
  return base64 >= MIN_BODY ? end : undefined;
}

export const privateKeyRule: PiiRule = {
  type: 'PRIVATE_KEY',
  scan({ text }) {
    const out: PiiCandidate[] = [];
    // Where the next "-----END " is after the last search (-1: none to the end of the text).
    let endSearchedFrom = -1;
    let nextEnd = -1;
    const findEnd = (from: number) => {
      if (endSearchedFrom === -1 || from < endSearchedFrom || (nextEnd !== -1 && nextEnd < from)) {
        nextEnd = text.indexOf(END, from);
        endSearchedFrom = from;
      } else if (nextEnd === -1) {
        return -1;
      }
      return nextEnd;
    };
    for (let at = text.indexOf(BEGIN); at !== -1; ) {
      const labelStart = at + BEGIN.length;
      const labelEnd = text.indexOf(DASHES, labelStart);
      if (labelEnd === -1) break;
      const label = text.slice(labelStart, labelEnd);
      if (labelEnd - labelStart > MAX_LABEL || !PRIVATE_LABEL.test(label)) {
        at = text.indexOf(BEGIN, labelStart);
        continue;
      }
      const bodyStart = labelEnd + DASHES.length;
      const endAt = findEnd(bodyStart);
      const footer = `${END}${label}${DASHES}`;
      let end: number | undefined;
      if (endAt !== -1 && text.startsWith(footer, endAt)) {
        // No BEGIN between this header and the END: the END closes this block.
        const otherBegin = text.indexOf(BEGIN, bodyStart);
        if (otherBegin === -1 || otherBegin > endAt) end = endAt + footer.length;
      }
      end ??= truncatedBodyEnd(text, bodyStart);
      if (end !== undefined) out.push({ start: at, end, score: 0.99 });
      at = text.indexOf(BEGIN, end ?? bodyStart);
    }
    return out;
  },
  mask(value) {
    const headerEnd = value.indexOf(DASHES, BEGIN.length);
    if (!value.startsWith(BEGIN) || headerEnd === -1) return '***';
    const header = value.slice(0, headerEnd + DASHES.length);
    const footerAt = value.lastIndexOf(END);
    const footer = footerAt > headerEnd ? value.slice(footerAt) : '';
    const lineBreak = value.includes('\\n') && !value.includes('\n') ? '\\n' : '\n';
    return `${header}${lineBreak}***${footer ? lineBreak + footer : ''}`;
  },
};
