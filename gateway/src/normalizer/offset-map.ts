// Positions in the normalized text → positions in the original (UTF-16 code units). Detectors see the
// normalized text and masking rewrites the original (spec, "Gateway pipeline"), so a span found in the
// one must name the characters that produced it in the other.
//
// The two texts are tiled by pieces in the same order. A positional piece maps position by position
// (unchanged text, one code unit for one: fullwidth ｇ → g); any other (ﬁ → fi, 𝐚 → a, e + U+0301 → é,
// a removed zero-width character, a run normalized as a whole) maps as a whole: a span that starts or
// ends inside it is widened to all of its original characters, so masking never leaves a part of a
// ligature or of a composed letter behind.

import { int32View, newInt32List, pushInt32, type Int32List } from '@palisade/core';

export interface OriginalSpan {
  start: number;
  end: number;
}

export interface OffsetMap {
  /** True when the normalized text is the original, position for position. */
  readonly identity: boolean;
  /** The original span that produced normalized [start, end) (clamped to the text). */
  toOriginal(start: number, end: number): OriginalSpan;
}

export const IDENTITY_OFFSETS: OffsetMap = Object.freeze({
  identity: true,
  toOriginal: (start: number, end: number): OriginalSpan => ({ start, end }),
});

/**
 * Collects pieces left to right; adjacent positional pieces are merged. The bounds are kept in typed
 * lists: a text with a zero-width character between every two letters has a piece per character, and
 * JS arrays of them (then copied into typed arrays) cost more than the normalisation itself.
 */
export class OffsetMapBuilder {
  // Piece k spans normalized [norm[k], norm[k+1]) and original [orig[k], orig[k+1]); positional[k] is 0 or 1.
  private readonly norm: Int32List = newInt32List();
  private readonly orig: Int32List = newInt32List();
  private readonly positional: Int32List = newInt32List();
  private changed = false;

  constructor() {
    pushInt32(this.norm, 0);
    pushInt32(this.orig, 0);
  }

  /**
   * `normLength` normalized code units came from `origLength` original ones. `positional`: the i-th unit
   * of the one came from the i-th of the other (equal lengths alone do not say so: " ﬁ𝐥" and " fil").
   */
  add(origLength: number, normLength: number, positional: boolean): void {
    if (origLength === 0 && normLength === 0) return;
    if (positional && origLength !== normLength) throw new Error('a positional piece needs equal lengths');
    if (!positional) this.changed = true;
    const last = this.positional.size - 1;
    if (positional && last >= 0 && this.positional.data[last] === 1) {
      this.norm.data[last + 1]! += normLength;
      this.orig.data[last + 1]! += origLength;
      return;
    }
    pushInt32(this.norm, this.norm.data[this.norm.size - 1]! + normLength);
    pushInt32(this.orig, this.orig.data[this.orig.size - 1]! + origLength);
    pushInt32(this.positional, positional ? 1 : 0);
  }

  build(): OffsetMap {
    if (!this.changed) return IDENTITY_OFFSETS;
    return new PieceOffsetMap(int32View(this.norm), int32View(this.orig), int32View(this.positional));
  }
}

class PieceOffsetMap implements OffsetMap {
  readonly identity = false;
  private readonly normLength: number;

  constructor(
    private readonly norm: Int32Array,
    private readonly orig: Int32Array,
    private readonly positional: Int32Array,
  ) {
    this.normLength = norm[norm.length - 1]!;
  }

  /**
   * The piece holding normalized position p (0 <= p < normLength): the last k with norm[k] <= p. Pieces
   * with an empty normalized side (removed characters) start where the next one starts, so the search
   * never stops on one.
   */
  private pieceAt(p: number): number {
    let lo = 0;
    let hi = this.positional.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.norm[mid]! <= p) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  /** A start position: inside or at the start of a piece; removed characters before it stay outside. */
  private mapStart(p: number): number {
    if (p >= this.normLength) return this.normLength === 0 ? 0 : this.mapEnd(this.normLength);
    const k = this.pieceAt(p);
    if (k < 0) return 0;
    const offset = p - this.norm[k]!;
    return this.positional[k] ? this.orig[k]! + offset : this.orig[k]!;
  }

  /** An end position: inside or at the end of a piece; removed characters after it stay outside. */
  private mapEnd(p: number): number {
    // The piece that holds position p - 1 (p >= 1: an empty span never gets here).
    const k = this.pieceAt(p - 1);
    if (k < 0) return 0;
    const offset = p - this.norm[k]!;
    return this.positional[k] ? this.orig[k]! + offset : this.orig[k + 1]!;
  }

  toOriginal(start: number, end: number): OriginalSpan {
    const s = Math.max(0, Math.min(start, this.normLength));
    const e = Math.max(s, Math.min(end, this.normLength));
    const origStart = this.mapStart(s);
    if (e === s) return { start: origStart, end: origStart };
    return { start: origStart, end: Math.max(origStart, this.mapEnd(e)) };
  }
}
