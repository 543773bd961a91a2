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
  rawAt?: number[];
}

const SIMPLE_ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const HEX4 = /^[0-9a-fA-F]{4}$/;

/**
 * Decodes the backslash escapes of a JSON text (outside strings a backslash is not valid JSON, so
 * every escape is a string's). An escape cut at the end of the text is kept as it is.
 */
export function decodeJsonEscapes(raw: string): DecodedJson {
  if (!raw.includes('\\')) return { text: raw };
  let text = '';
  const rawAt: number[] = [];
  let i = 0;
  while (i < raw.length) {
    const c = raw[i]!;
    if (c === '\\' && i + 1 < raw.length) {
      const next = raw[i + 1]!;
      const simple = SIMPLE_ESCAPES[next];
      if (simple !== undefined) {
        rawAt.push(i);
        text += simple;
        i += 2;
        continue;
      }
      const hex = raw.slice(i + 2, i + 6);
      if (next === 'u' && HEX4.test(hex)) {
        rawAt.push(i);
        text += String.fromCharCode(parseInt(hex, 16));
        i += 6;
        continue;
      }
    }
    rawAt.push(i);
    text += c;
    i += 1;
  }
  rawAt.push(raw.length);
  return { text, rawAt };
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
  /** [start, end) of each string's interior; the last one's end is Infinity while it is open. */
  private spans: Array<{ start: number; end: number }> = [];

  push(text: string): void {
    for (let i = 0; i < text.length; i++, this.at++) {
      const c = text.charCodeAt(i);
      if (!this.inString) {
        if (c === 0x22) {
          this.inString = true;
          this.spans.push({ start: this.at + 1, end: Infinity });
        }
      } else if (this.escaped) {
        this.escaped = false;
      } else if (c === 0x5c) {
        this.escaped = true;
      } else if (c === 0x22) {
        this.inString = false;
        this.spans[this.spans.length - 1]!.end = this.at;
      }
    }
  }

  /** [start, end) lies inside the interior of one string literal. */
  holds(start: number, end: number): boolean {
    let lo = 0;
    let hi = this.spans.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.spans[mid]!.start <= start) lo = mid;
      else hi = mid - 1;
    }
    const span = this.spans[lo];
    return span !== undefined && span.start <= start && end <= span.end;
  }

  /** Nothing before `offset` is asked about again. */
  forget(offset: number): void {
    let drop = 0;
    while (drop < this.spans.length - 1 && this.spans[drop]!.end <= offset) drop += 1;
    if (drop > 0) this.spans = this.spans.slice(drop);
  }
}

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

/** A whole JSON text with findings of its decoded text (sorted, apart) rewritten; null when one is outside a string. */
export function rewriteJsonText(raw: string, decoded: DecodedJson, spans: readonly MaskSpan[]): string | null {
  const strings = new JsonStrings();
  strings.push(raw);
  const mapped = toRawSpans(spans, decoded, 0, strings);
  return mapped ? replaceSpans(raw, mapped) : null;
}
