// Per-code-unit answers the NFKC step asks for every character, computed once at load from the
// runtime's own ICU (so they never disagree with String.prototype.normalize): about 10 ms, 128 KB.
// Asking normalize() or a \p{M} regex per character instead costs 10–50 times more on non-ASCII text.

/** What NFKC may attach to the character before it: combining marks, Hangul vowel/final jamo, halfwidth voicing marks. */
export const CONTINUATION_PATTERN = /[\p{M}\u1160-\u11ff\ud7b0-\ud7ff\uff9e\uff9f]/u;

/** Bit 1: the BMP code unit is a whole character that NFKC leaves as it is. Bit 2: it is a continuation. */
export const STABLE = 1;
export const CONTINUATION = 2;

/** The invisible characters the normalizer removes (homoglyphs.ts says which and why). */
export const isInvisible = (c: number) =>
  c === 0xad || c === 0x180e || (c >= 0x200b && c <= 0x200d) || (c >= 0x2060 && c <= 0x2064) || c === 0xfeff;

interface Tables {
  flags: Uint8Array;
  nfkc: Map<number, string>;
  interesting: RegExp;
}

function build(): Tables {
  const flags = new Uint8Array(0x10000);
  const nfkc = new Map<number, string>();
  for (let c = 0; c < 0x10000; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue; // halves of a pair: asked as a pair
    const s = String.fromCharCode(c);
    let f = 0;
    const normalized = c < 0x80 ? s : s.normalize('NFKC');
    if (normalized === s) f |= STABLE;
    else nfkc.set(c, normalized);
    if (c >= 0x300 && CONTINUATION_PATTERN.test(s)) f |= CONTINUATION;
    flags[c] = f;
  }
  // Every code unit that needs a look: not stable alone, a continuation, invisible, or half of a pair.
  const ranges: string[] = [];
  const hex = (c: number) => `\\u${c.toString(16).padStart(4, '0')}`;
  let start = -1;
  for (let c = 0; c <= 0x10000; c++) {
    const hit = c < 0x10000 && ((c >= 0xd800 && c <= 0xdfff) || (flags[c]! & STABLE) === 0 || (flags[c]! & CONTINUATION) !== 0 || isInvisible(c));
    if (hit && start < 0) start = c;
    if (!hit && start >= 0) {
      ranges.push(start === c - 1 ? hex(start) : `${hex(start)}-${hex(c - 1)}`);
      start = -1;
    }
  }
  return { flags, nfkc, interesting: new RegExp(`[${ranges.join('')}]`, 'g') };
}

const TABLES = build();

/** Indexed by UTF-16 code unit; constant after load. */
export const BMP_FLAGS: Readonly<Uint8Array> = TABLES.flags;
/** NFKC of each BMP character that NFKC changes, alone. */
export const BMP_NFKC: ReadonlyMap<number, string> = TABLES.nfkc;
/**
 * Finds the next code unit that needs a look: set lastIndex, then test; the match ends at lastIndex.
 * Always used synchronously from a set lastIndex, so sharing it holds no state between calls.
 */
export const INTERESTING: RegExp = TABLES.interesting;
