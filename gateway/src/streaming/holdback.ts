// The sliding window over one streamed answer: text arrives at the tail, is checked in a window
// (the unreleased tail plus some released context), and is released only up to where no rule can
// still match across the tail. A match still touching the last `holdback` characters is open (it may
// grow), so nothing from its start on is released until it closes.

import { applyPiiAction, type PiiSpan } from '@palisade/detectors';

/** A finding in absolute offsets of the answer text; `replacement` is what the client sees instead. */
export interface MaskSpan {
  start: number;
  end: number;
  replacement: string;
}

/** PII findings of `text` as spans carrying their masked value (the partial mask of mask mode). */
export function maskedSpans(text: string, findings: readonly PiiSpan[]): MaskSpan[] {
  return findings.map((f) => ({ start: f.start, end: f.end, replacement: applyPiiAction(text.slice(f.start, f.end), [{ type: f.type, start: 0, end: f.end - f.start }], 'partial') }));
}

export class HoldbackText {
  /** The text from `base` on (the part before it was released and is no longer needed). */
  private tail = '';
  private base = 0;
  private released = 0;
  /** Closed findings not yet rendered, by start. */
  private confirmed: MaskSpan[] = [];

  constructor(
    readonly holdback: number,
    /** Released characters a window keeps before the tail, for detectors that read context. */
    readonly context: number,
  ) {}

  get length(): number {
    return this.base + this.tail.length;
  }

  /** The text may be released (and rendered) up to this offset. */
  get releasedTo(): number {
    return this.released;
  }

  append(text: string): void {
    this.tail += text;
  }

  /** What to check now: the unreleased tail and its context. */
  window(): { start: number; text: string } {
    const start = Math.max(this.base, this.released - this.context);
    return { start, text: this.tail.slice(start - this.base) };
  }

  /**
   * Takes a window's findings (absolute, sorted, non-overlapping) and moves the release point.
   * `final`: the stream ended, everything left is released. `need`: the characters at the end that
   * may still start a value (default: the whole hold-back). Returns false when a finding starts in
   * text already released (the hold-back was too short for it): the caller must refuse the stream.
   */
  apply(spans: readonly MaskSpan[], final: boolean, need: number = this.holdback): boolean {
    const n = this.length;
    const closedBefore = n - this.holdback;
    let limit = final ? n : Math.max(this.released, n - need);
    for (const span of spans) {
      if (span.start < this.released) {
        if (span.end > this.released) return false;
        continue;
      }
      if (!final && span.end > closedBefore) limit = Math.min(limit, span.start);
    }
    limit = Math.max(limit, this.released);
    for (const span of spans) {
      if (span.start >= this.released && span.end <= limit) this.confirmed.push(span);
    }
    this.released = limit;
    return true;
  }

  /** The client's text of [start, end) (within the released part): a finding's replacement sits where it starts. */
  render(start: number, end: number): string {
    let out = '';
    let at = start;
    for (const span of this.confirmed) {
      if (span.start >= end) break;
      if (span.end <= start) continue;
      if (span.start >= start) {
        out += this.slice(at, span.start) + span.replacement;
      }
      at = Math.max(at, Math.min(span.end, end));
    }
    return out + this.slice(at, end);
  }

  /** Nothing before `offset` will be rendered again: its text and findings are let go. */
  forget(offset: number): void {
    let drop = 0;
    while (drop < this.confirmed.length && this.confirmed[drop]!.end <= offset) drop += 1;
    if (drop > 0) this.confirmed = this.confirmed.slice(drop);
    const keepFrom = Math.min(offset, this.released - this.context);
    if (keepFrom > this.base) {
      this.tail = this.tail.slice(keepFrom - this.base);
      this.base = keepFrom;
    }
  }

  private slice(from: number, to: number): string {
    return to > from ? this.tail.slice(from - this.base, to - this.base) : '';
  }
}
