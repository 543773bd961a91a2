// Tool-call arguments are JSON text (vendor_a's `arguments` string, or vendor_b's and vendor_d's
// argument objects serialised). They are read by the checks with their string escapes decoded, so
// `alice\u0040example.com` is seen as the address, and a value is rewritten only inside one string
// literal with its replacement escaped again, so the arguments stay valid JSON; a finding outside a
// string (a card number written as a JSON number, a key and its value together) cannot be rewritten
// so and is refused. Written by hand: JSON parsers give values, not the source offset of each
// character, which the stream's hold-back window works in; both passes here are linear.
import type { MaskSpan } from '../streaming/holdback.js';
import { replaceSpans } from './pseudonyms.js';

/** A JSON text with its escapes decoded; `rawAt[i]` is the raw offset of decoded character i (absent: no escapes, offsets equal). */
export interface DecodedJson {
  text: string;
  rawAt?: ArrayLike<number>;
}

/** The character each one-letter escape stands for, by the letter's code (-1: not an escape). */
const SIMPLE_ESCAPES = new Int32Array(128).fill(-1);
for (const [letter, char] of Object.entries({ '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' })) {
  SIMPLE_ESCAPES[letter.charCodeAt(0)] = char.charCodeAt(0);
}

/** The value of four hex digits at `at`, or -1. */
function hex4(raw: string, at: number): number {
  if (at + 4 > raw.length) return -1;
  let value = 0;
  for (let i = at; i < at + 4; i++) {
    const c = raw.charCodeAt(i);
    const digit = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : c >= 0x41 && c <= 0x46 ? c - 0x37 : -1;
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

/**
 * Decodes the backslash escapes of a JSON text (outside strings a backslash is not valid JSON, so
 * every escape is a string's). An escape cut at the end of the text is kept as it is. The decoded
 * code units and their raw offsets go into typed arrays sized once: a text of escapes is an LLM's
 * output, so an attacker's, and building it by concatenation cost 100 ms and more per MiB.
 */
export function decodeJsonEscapes(raw: string): DecodedJson {
  if (!raw.includes('\\')) return { text: raw };
  const codes = new Uint16Array(raw.length);
  const rawAt = new Int32Array(raw.length + 1);
  let n = 0;
  let i = 0;
  while (i < raw.length) {
    const c = raw.charCodeAt(i);
    if (c === 0x5c && i + 1 < raw.length) {
      const next = raw.charCodeAt(i + 1);
      const simple = next < 128 ? SIMPLE_ESCAPES[next]! : -1;
      if (simple >= 0) {
        rawAt[n] = i;
        codes[n++] = simple;
        i += 2;
        continue;
      }
      const unit = next === 0x75 ? hex4(raw, i + 2) : -1;
      if (unit >= 0) {
        rawAt[n] = i;
        codes[n++] = unit;
        i += 6;
        continue;
      }
    }
    rawAt[n] = i;
    codes[n++] = c;
    i += 1;
  }
  rawAt[n] = raw.length;
  // UTF-16 code units as they are (a lone surrogate stays one).
  const text = Buffer.from(codes.buffer, 0, n * 2).toString('utf16le');
  return { text, rawAt: rawAt.subarray(0, n + 1) };
}

const rawOffset = (decoded: DecodedJson, at: number): number => decoded.rawAt?.[at] ?? at;

/**
 * The interiors of a JSON text's string literals, fed as the text arrives (a stream's fragments), in
 * absolute offsets: says whether a span lies inside one string, where an escaped rewrite keeps the
 * JSON valid.
 */
export class JsonStrings {
  private at = 0;
  private inString = false;
  private escaped = false;
  /**
   * [starts[k], ends[k]) for k in [head, count) is a string's interior; the last end is OPEN while it
   * is open. Typed arrays grown by doubling, not objects: a text of quotes has half a million strings
   * per MiB.
   */
  private starts = new Int32Array(16);
  private ends = new Int32Array(16);
  private count = 0;
  /** Strings before this index are forgotten. */
  private head = 0;

  push(text: string): void {
    for (let i = 0; i < text.length; i++, this.at++) {
      const c = text.charCodeAt(i);
      if (!this.inString) {
        if (c === 0x22) {
          this.inString = true;
          if (this.count === this.starts.length) this.grow();
          this.starts[this.count] = this.at + 1;
          this.ends[this.count] = OPEN;
          this.count += 1;
        }
      } else if (this.escaped) {
        this.escaped = false;
      } else if (c === 0x5c) {
        this.escaped = true;
      } else if (c === 0x22) {
        this.inString = false;
        this.ends[this.count - 1] = this.at;
      }
    }
  }

  /** [start, end) lies inside the interior of one string literal. */
  holds(start: number, end: number): boolean {
    let lo = this.head;
    let hi = this.count - 1;
    if (hi < lo) return false;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= start) lo = mid;
      else hi = mid - 1;
    }
    return this.starts[lo]! <= start && end <= this.ends[lo]!;
  }

  /** Nothing before `offset` is asked about again. */
  forget(offset: number): void {
    while (this.head < this.count - 1 && this.ends[this.head]! <= offset) this.head += 1;
  }

  /** Twice the room; the forgotten strings are dropped while copying. */
  private grow(): void {
    const kept = this.count - this.head;
    const size = Math.max(16, kept * 2);
    const starts = new Int32Array(size);
    const ends = new Int32Array(size);
    starts.set(this.starts.subarray(this.head, this.count));
    ends.set(this.ends.subarray(this.head, this.count));
    this.starts = starts;
    this.ends = ends;
    this.count = kept;
    this.head = 0;
  }
}

/** The end of a string still open (a JavaScript string is shorter). */
const OPEN = 0x3fffffff;

/**
 * Findings in a decoded window → the same findings in the raw JSON text (absolute offsets, the raw
 * window starting at `rawStart`), each replacement escaped as a string's content. Null when one of
 * them is not inside a string literal: it cannot be rewritten with the JSON kept valid. Findings
 * ending by `settledTo` (text already sent, read again as context) are not asked about.
 */
export function toRawSpans(spans: readonly MaskSpan[], decoded: DecodedJson, rawStart: number, strings: JsonStrings, settledTo = 0): MaskSpan[] | null {
  const out: MaskSpan[] = [];
  for (const span of spans) {
    const start = rawStart + rawOffset(decoded, span.start);
    const end = rawStart + rawOffset(decoded, span.end);
    if (end > settledTo && !strings.holds(start, end)) return null;
    out.push({ start, end, replacement: JSON.stringify(span.replacement).slice(1, -1) });
  }
  return out;
}

/**
 * Whether each span (sorted, apart) lies inside the interior of one string literal: one pass over the
 * text with nothing kept per string, for a whole answer's arguments (a stream asks JsonStrings, which
 * keeps the strings of its window).
 */
function eachInsideOneString(raw: string, spans: ReadonlyArray<{ start: number; end: number }>): boolean {
  let inString = false;
  let escaped = false;
  /** How many strings have opened: the id of the one open now. */
  let opened = 0;
  let k = 0;
  /** The id of the string the current span started in; -1: at its start. */
  let startedIn = -1;
  for (let i = 0; k < spans.length; i++) {
    // The span's boundaries are checked before the character there is read.
    while (k < spans.length) {
      const span = spans[k]!;
      if (startedIn < 0 && span.start === i) {
        if (!inString) return false;
        startedIn = opened;
      }
      if (startedIn < 0 || span.end !== i) break;
      if (!inString || opened !== startedIn) return false;
      startedIn = -1;
      k += 1;
    }
    if (i >= raw.length) break;
    const c = raw.charCodeAt(i);
    if (!inString) {
      if (c === 0x22) {
        inString = true;
        opened += 1;
      }
    } else if (escaped) escaped = false;
    else if (c === 0x5c) escaped = true;
    else if (c === 0x22) inString = false;
  }
  return k === spans.length;
}

/** A whole JSON text with findings of its decoded text (sorted, apart) rewritten; null when one is outside a string. */
export function rewriteJsonText(raw: string, decoded: DecodedJson, spans: readonly MaskSpan[]): string | null {
  const mapped = spans.map((span) => ({ start: rawOffset(decoded, span.start), end: rawOffset(decoded, span.end), replacement: JSON.stringify(span.replacement).slice(1, -1) }));
  return eachInsideOneString(raw, mapped) ? replaceSpans(raw, mapped) : null;
}
