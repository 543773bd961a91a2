// The prompt the detectors read is the mapped text parts joined by a newline; a span found in it is
// mapped back to the part (and the offset inside the part) it came from, so SANITIZE can rewrite the
// original JSON at that part's pointer.
import type { TextPart } from '@palisade/core';

export const PART_SEPARATOR = '\n';

export interface JoinedParts {
  text: string;
  /** Start offset of each part in `text`. */
  starts: number[];
}

export function joinParts(parts: readonly TextPart[]): JoinedParts {
  const starts: number[] = [];
  let text = '';
  for (const [i, part] of parts.entries()) {
    if (i > 0) text += PART_SEPARATOR;
    starts.push(text.length);
    text += part.text;
  }
  return { text, starts };
}

/** The part holding [start, end) of the joined text, with offsets inside it; null when it crosses parts. */
export function locate(joined: JoinedParts, parts: readonly TextPart[], start: number, end: number): { part: number; start: number; end: number } | null {
  let lo = 0;
  let hi = joined.starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (joined.starts[mid]! <= start) lo = mid;
    else hi = mid - 1;
  }
  const partStart = joined.starts[lo];
  const part = parts[lo];
  if (partStart === undefined || part === undefined) return null;
  if (end - partStart > part.text.length) return null;
  return { part: lo, start: start - partStart, end: end - partStart };
}
