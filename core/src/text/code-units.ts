// A text's UTF-16 code units in a typed array and back, for scans that rewrite a long text in place
// (whitespace collapse, homoglyph and leetspeak mapping) instead of calling replace() or concatenating
// pieces: on a text with hundreds of thousands of matches, replace() keeps every match's pieces alive
// until it returns, and the young-generation collections that copy them made a 1 MiB text take 100 ms
// where 64 KiB took 1. Node's Buffer copies the units in both directions; a charCodeAt loop or
// String.fromCharCode over chunks cost several times as much. Typed arrays are little-endian on every
// platform Node runs on, as 'utf16le' reads them.

/** The UTF-16 code units of `text` in a new array. */
export function codeUnitsOf(text: string): Uint16Array {
  const codes = new Uint16Array(text.length);
  writeCodeUnits(text, codes);
  return codes;
}

/** The code units of `text` written into the start of `codes` (which must hold them). */
export function writeCodeUnits(text: string, codes: Uint16Array): void {
  Buffer.from(codes.buffer, codes.byteOffset, codes.byteLength).write(text, 'utf16le');
}

/**
 * The string of the first `length` code units of `codes`, lone surrogates kept (a TextDecoder would
 * replace them). Text without a code unit above 0xFF becomes a one-byte string, as V8 would have made
 * it (regexes scan those faster); `narrow`, a scratch buffer the caller lends, saves allocating one
 * for that copy (a fresh megabyte costs more in page faults than the copy).
 */
export function stringOfCodeUnits(codes: Uint16Array, length: number, narrow?: Buffer): string {
  let wide = false;
  for (let i = 0; i < length; i++) {
    if (codes[i]! > 0xff) {
      wide = true;
      break;
    }
  }
  if (wide) return Buffer.from(codes.buffer, codes.byteOffset, length * 2).toString('utf16le');
  if (narrow === undefined || narrow.length < length) return Buffer.from(codes.subarray(0, length)).toString('latin1');
  for (let i = 0; i < length; i++) narrow[i] = codes[i]!;
  return narrow.toString('latin1', 0, length);
}

/**
 * `text` without the code units marked 1 in `drop` (a table of all 65,536): one scan, and one copy of
 * the code units only when something is dropped (replace() of a character class keeps a piece per
 * match alive until it returns; a text with a zero-width space between every two letters spent a fifth
 * of its normalisation collecting them).
 */
export function withoutCodeUnits(text: string, drop: Uint8Array): string {
  let i = 0;
  while (i < text.length && drop[text.charCodeAt(i)] === 0) i++;
  if (i === text.length) return text;
  const codes = codeUnitsOf(text);
  let kept = i;
  for (; i < codes.length; i++) {
    const c = codes[i]!;
    if (drop[c] === 0) codes[kept++] = c;
  }
  return stringOfCodeUnits(codes, kept);
}
