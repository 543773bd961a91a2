// Unicode classes of every BMP code unit in one table, so the normalisation and de-obfuscation scans
// classify a character with an array read instead of running a Unicode-property regex at each position
// (those regexes were most of the normalisation's cost). Built once from the same property regexes, so
// the classes are exactly theirs; astral characters (surrogate pairs) are left to the regexes.

export const THREAT_CHAR = {
  letter: 1, // \p{L}
  number: 2, // \p{N}
  mark: 4, // \p{M}
  cyrillic: 8, // \p{Script=Cyrillic}
  latin: 16, // \p{Script=Latin}
  space: 32, // \s (the set String.prototype.trim removes)
} as const;

function buildTable(): Uint8Array {
  const table = new Uint8Array(0x10000);
  // All BMP characters but the surrogates, in one string: one regex pass per class marks its runs.
  const codes: number[] = [];
  for (let c = 0; c < 0x10000; c++) if (c < 0xd800 || c > 0xdfff) codes.push(c);
  let all = '';
  for (let i = 0; i < codes.length; i += 4096) all += String.fromCharCode(...codes.slice(i, i + 4096));
  const classes: Array<[RegExp, number]> = [
    [/\p{L}+/gu, THREAT_CHAR.letter],
    [/\p{N}+/gu, THREAT_CHAR.number],
    [/\p{M}+/gu, THREAT_CHAR.mark],
    [/\p{Script=Cyrillic}+/gu, THREAT_CHAR.cyrillic],
    [/\p{Script=Latin}+/gu, THREAT_CHAR.latin],
    [/\s+/gu, THREAT_CHAR.space],
  ];
  for (const [pattern, flag] of classes) {
    for (const match of all.matchAll(pattern)) {
      for (let i = match.index; i < match.index + match[0].length; i++) table[all.charCodeAt(i)]! |= flag;
    }
  }
  return table;
}

/** THREAT_CHAR flags of each BMP code unit (0 for surrogates); read-only by convention. */
export const THREAT_CHAR_TABLE: Readonly<Uint8Array> = buildTable();

/** True for a UTF-16 surrogate (half of an astral character, or a lone one). */
export function isThreatSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdfff;
}

/**
 * Code units of the character at `i` when it has one of `flags` (its class test for astral characters
 * is `astral`): 1, 2 for an astral one, 0 when it has none.
 */
export function threatCharWidth(text: string, i: number, flags: number, astral: RegExp): number {
  const c = text.charCodeAt(i);
  if (!isThreatSurrogate(c)) return (THREAT_CHAR_TABLE[c]! & flags) !== 0 ? 1 : 0;
  const cp = text.codePointAt(i)!;
  return cp > 0xffff && astral.test(String.fromCodePoint(cp)) ? 2 : 0;
}

/**
 * The string of the first `length` UTF-16 code units of `codes`, lone surrogates kept (a TextDecoder
 * would replace them). The scans that rewrite a text (whitespace collapse, spaced letters, leetspeak,
 * homoglyphs) write into such a buffer instead of calling replace() or concatenating: on a text with
 * hundreds of thousands of matches, replace() keeps every match's pieces alive until it returns, and
 * the young-generation collections that copy them made a 1 MiB text take 100 ms where 64 KiB took 1.
 * Text without a code unit above 0xFF becomes a one-byte string, as V8 would have made it: the
 * signal regexes scan two-byte strings for their Cyrillic patterns too. Typed arrays are
 * little-endian on every platform Node runs on, as 'utf16le' reads them.
 */
export function threatStringOfCodes(codes: Uint16Array, length: number): string {
  let wide = false;
  for (let i = 0; i < length; i++) {
    if (codes[i]! > 0xff) {
      wide = true;
      break;
    }
  }
  if (wide) return Buffer.from(codes.buffer, codes.byteOffset, length * 2).toString('utf16le');
  return Buffer.from(codes.subarray(0, length)).toString('latin1');
}

/** The UTF-16 code units of `text` in a new array, copied by Buffer.write (a charCodeAt each costs several times as much). */
export function threatCodesOf(text: string): Uint16Array {
  const codes = new Uint16Array(text.length);
  Buffer.from(codes.buffer, codes.byteOffset, codes.byteLength).write(text, 'utf16le');
  return codes;
}
