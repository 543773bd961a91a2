// The column header of a value in a delimited table (CSV, TSV, "a;b;c"): in
//   name,passport,phone
//   Ivan,4508 123456,+7 916 123-45-67
// the second value is named by "passport" two lines up, which no look-back over the words before it
// sees. A header is a line with separators and no digits; the rows under it, up to a blank line, take
// their names from it. Positions must be asked in increasing order: one cursor walks the text once.

const SEPARATORS = [44 /* , */, 59 /* ; */, 9 /* tab */, 124 /* | */];
/** Lines longer than this are prose or data blobs, not table rows. */
const MAX_LINE = 4096;

export interface ColumnHeaders {
  /** The header cell of the column holding `pos` (lower case, quotes trimmed), or undefined. */
  nameAt(pos: number): string | undefined;
}

function lineEnd(text: string, from: number): number {
  const end = text.indexOf('\n', from);
  return end === -1 ? text.length : end;
}

/** The header cells of a line, or undefined when it is not a header (digits, no separator, too long). */
function headerCells(text: string, start: number, end: number): { cells: string[]; sep: number } | undefined {
  if (end - start > MAX_LINE || end === start) return undefined;
  // Counted in a fixed array by the separator's place in SEPARATORS (every line of every text is read
  // here; an includes() and a map update per character were 2 % of the gateway's inspection time).
  const counts = new Int32Array(4);
  const firstAt = new Int32Array(4);
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) return undefined;
    const which = c === 44 ? 0 : c === 59 ? 1 : c === 9 ? 2 : c === 124 ? 3 : -1;
    if (which < 0) continue;
    if (counts[which] === 0) firstAt[which] = i;
    counts[which]!++;
  }
  // The most frequent separator; on a tie, the one seen first in the line.
  let best = -1;
  for (let k = 0; k < 4; k++) {
    if (counts[k] === 0) continue;
    if (best < 0 || counts[k]! > counts[best]! || (counts[k] === counts[best] && firstAt[k]! < firstAt[best]!)) best = k;
  }
  if (best < 0) return undefined;
  const sep = SEPARATORS[best]!;
  const cells = text
    .slice(start, end)
    .split(String.fromCharCode(sep))
    .map((cell) => cell.trim().replace(/^["']|["']$/g, '').toLowerCase());
  return { cells, sep };
}

export function createColumnHeaders(text: string): ColumnHeaders {
  let header: { cells: string[]; sep: number } | undefined;
  let lineStart = 0;
  // Before the first line: the first question reads it, not the constructor, since most texts never
  // ask (a line of prose with commas would be split into "cells" for nothing).
  let end = -1;
  let field = 0;
  let scanned = 0;
  const enterLine = (start: number) => {
    lineStart = start;
    end = lineEnd(text, start);
    field = 0;
    scanned = start;
    if (end === start || end - start > MAX_LINE) header = undefined;
    else header = headerCells(text, start, end) ?? header;
  };
  return {
    nameAt(pos) {
      if (pos < scanned) return undefined;
      while (pos > end) enterLine(end + 1);
      if (!header || end - lineStart > MAX_LINE) return undefined;
      for (; scanned < pos; scanned++) if (text.charCodeAt(scanned) === header.sep) field++;
      return header.cells[field];
    },
  };
}
