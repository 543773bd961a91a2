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

/** threatCharWidth of the character at `i` of the code units [0, length) of `codes`. */
export function threatCodesCharWidth(codes: Uint16Array, length: number, i: number, flags: number, astral: RegExp): number {
  const c = codes[i]!;
  if (!isThreatSurrogate(c)) return (THREAT_CHAR_TABLE[c]! & flags) !== 0 ? 1 : 0;
  if (c >= 0xdc00 || i + 1 >= length) return 0;
  const low = codes[i + 1]!;
  return low >= 0xdc00 && low <= 0xdfff && astral.test(String.fromCharCode(c, low)) ? 2 : 0;
}

/**
 * toLowerCase of each BMP code unit, where it is one code unit and needs no context; 0 marks the
 * others (U+0130 İ becomes two code units, U+03A3 Σ depends on the letters around it, surrogates are
 * halves of astral characters): a text with one of those is lowered by toLowerCase itself.
 */
function buildLowerTable(): Uint16Array {
  const table = new Uint16Array(0x10000);
  for (let c = 0; c < 0x10000; c++) {
    if (isThreatSurrogate(c) || c === 0x3a3) continue;
    const lower = String.fromCharCode(c).toLowerCase();
    if (lower.length === 1) table[c] = lower.charCodeAt(0);
  }
  // U+0000 lowers to itself; 0 is kept as the mark only for the others.
  table[0] = 0;
  return table;
}

/** See buildLowerTable; read-only by convention. */
export const THREAT_LOWER_TABLE: Readonly<Uint16Array> = buildLowerTable();

/**
 * toLowerCase of the code units [0, length) of `codes`, in place; false (and `codes` unchanged past
 * the first special one) when a character needs toLowerCase itself (see buildLowerTable).
 */
export function lowerThreatCodes(codes: Uint16Array, length: number): boolean {
  const table = THREAT_LOWER_TABLE;
  for (let i = 0; i < length; i++) {
    const c = codes[i]!;
    const lower = table[c]!;
    if (lower === 0 && c !== 0) return false;
    codes[i] = lower;
  }
  return true;
}

/** `codes` when it holds `length` code units, else a new array of at least that many (for scratch buffers that grow). */
export function threatCodesRoom(codes: Uint16Array, length: number): Uint16Array {
  return codes.length >= length ? codes : new Uint16Array(Math.max(length, 2 * codes.length));
}
