// Instructions wrapped in base64: the blocks of a prompt that decode to readable text, each scored as
// a view of its own (deobfuscate.ts).
import { isUtf8 } from 'node:buffer';
import { TextDecoder } from 'node:util';
import { THREAT_CHAR, THREAT_CHAR_TABLE } from './char-classes.js';

const LETTER = /\p{L}/u;

const BASE64_CHAR = new Uint8Array(128);
for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-') BASE64_CHAR[ch.charCodeAt(0)] = 1;
const BASE64_MIN_BLOCK = 20;

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
 * UTF-8 test or the printable-text test.
 */
export function decodeThreatBase64Blocks(text: string, options: ThreatBase64Options = THREAT_BASE64_DEFAULTS): string[] {
  const out: string[] = [];
  // Made at the first block that is UTF-8: most prompts have none, and making one costs more than
  // scanning a 2 KB prompt.
  let decoder: TextDecoder | undefined;
  // The blocks are the matches of /[A-Za-z0-9+/_-]{20,}={0,2}/g, found as runs of a 128-entry table (a
  // run of 20 or more is a match from its start, and no shorter run holds one), their character classes
  // read by code: a hostile text holds tens of thousands of blocks, and a regex test per block, or an
  // exception per block that is not UTF-8, cost 4 µs each.
  const isBase64 = (c: number): boolean => c < 128 && BASE64_CHAR[c] === 1;
  const length = text.length;
  let i = 0;
  while (out.length < options.maxBlocks) {
    while (i < length && !isBase64(text.charCodeAt(i))) i++;
    if (i + BASE64_MIN_BLOCK > length) break;
    const start = i;
    // A run reaches 20 only if the 20th character from its start ends a stretch of base64 characters
    // back to it: read backwards from there, ordinary words end the test at their first space, and the
    // scan goes on after it, so most characters of prose are never read.
    let back = start + BASE64_MIN_BLOCK - 1;
    while (back > start && isBase64(text.charCodeAt(back))) back--;
    if (back > start) {
      i = back + 1;
      continue;
    }
    i = start + BASE64_MIN_BLOCK;
    while (i < length && isBase64(text.charCodeAt(i))) i++;
    const end = i;
    while (i < text.length && i - end < 2 && text.charCodeAt(i) === 0x3d) i++;
    if (i - start > options.maxBlockChars) continue;
    let lower = false;
    let upperOrDigit = false;
    let urlSafe = false;
    for (let j = start; j < end; j++) {
      const c = text.charCodeAt(j);
      if (c >= 0x61 && c <= 0x7a) lower = true;
      else if ((c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39)) upperOrDigit = true;
      else if (c === 0x2d || c === 0x5f) urlSafe = true;
    }
    // Mixed case or digits: a real encoding, not a long lower-case word or an ALL-CAPS constant.
    if (!lower || !upperOrDigit) continue;
    const block = text.slice(start, i);
    const bytes = Buffer.from(urlSafe ? block.replace(/-/g, '+').replace(/_/g, '/') : block, 'base64');
    if (!isUtf8(bytes)) continue;
    decoder ??= new TextDecoder('utf-8', { fatal: true });
    const decoded = decoder.decode(bytes);
    if (threatReadableText(decoded)) out.push(decoded);
  }
  return out;
}

const READABLE = /[\p{L}\p{N}\p{P}\p{Zs}\n\t]/u;

/** Decoded base64 that reads as text: printable, mostly letters, with some spacing. */
export function threatReadableText(text: string): boolean {
  // The spacing test first: a hostile text can hold tens of thousands of blocks that decode to text
  // without any (a JSON header, an identifier), each then ruled out without a test per character.
  if (text.length < 8 || !/\s/.test(text)) return false;
  let readable = 0;
  let letters = 0;
  let total = 0;
  for (const ch of text) {
    total++;
    // Letters and numbers of the BMP by the table; the rest (and astral characters) by the regexes.
    const flags = ch.length === 1 ? THREAT_CHAR_TABLE[ch.charCodeAt(0)]! : 0;
    if ((flags & THREAT_CHAR.letter) !== 0) {
      readable++;
      letters++;
    } else if ((flags & THREAT_CHAR.number) !== 0) readable++;
    else {
      if (READABLE.test(ch)) readable++;
      if (ch.length === 2 && LETTER.test(ch)) letters++;
    }
  }
  return readable / total >= 0.95 && letters / total >= 0.5;
}

