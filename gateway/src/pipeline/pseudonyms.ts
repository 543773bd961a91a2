// Reversible masking: each distinct PII value of a request becomes a numbered placeholder
// ([EMAIL_1], [PHONE_2]) before the LLM sees it, and the placeholders in the answer are put back to
// the original values for the client. The mapping lives in this object, in the request's memory
// only: it is never logged, stored or serialised (toJSON and inspect show nothing of it).
import type { PiiType } from '@palisade/core';
import { PII_PLACEHOLDERS } from '@palisade/detectors';

/** A span of text and what replaces it. */
export interface Replacement {
  start: number;
  end: number;
  replacement: string;
}

/** Placeholder names by type: the mask-mode placeholder without brackets (EMAIL, PHONE, SYSTEM_PROMPT). */
const NAMES = Object.fromEntries(Object.entries(PII_PLACEHOLDERS).map(([type, placeholder]) => [type, placeholder.replace(/^\[|\]$/g, '')])) as Record<PiiType, string>;

/** A placeholder as an LLM may write it back: any case. */
const PLACEHOLDER = /\[([a-z_]+)_(\d{1,6})\]/gi;

export class Pseudonyms {
  readonly #byValue = new Map<string, string>();
  readonly #byPlaceholder = new Map<string, string>();
  readonly #counts = new Map<string, number>();
  #longest = 0;

  /** The placeholder of a value, the same for every occurrence of the value in the request. */
  placeholderFor(type: PiiType, value: string): string {
    const key = `${type}\u0000${value}`;
    const known = this.#byValue.get(key);
    if (known) return known;
    const name = NAMES[type];
    const n = (this.#counts.get(name) ?? 0) + 1;
    this.#counts.set(name, n);
    const placeholder = `[${name}_${n}]`;
    this.#byValue.set(key, placeholder);
    this.#byPlaceholder.set(placeholder, value);
    this.#longest = Math.max(this.#longest, placeholder.length);
    return placeholder;
  }

  get size(): number {
    return this.#byPlaceholder.size;
  }

  /** The longest placeholder: a stream holds back at least this much so a split one is restored whole. */
  get longest(): number {
    return this.#longest;
  }

  /** The placeholders of a text with their original values (`escape` for text inside a JSON string). */
  restorations(text: string, escape = false): Replacement[] {
    const out: Replacement[] = [];
    if (this.#byPlaceholder.size === 0) return out;
    for (const match of text.matchAll(PLACEHOLDER)) {
      const value = this.#byPlaceholder.get(match[0].toUpperCase());
      if (value === undefined) continue;
      out.push({ start: match.index, end: match.index + match[0].length, replacement: escape ? JSON.stringify(value).slice(1, -1) : value });
    }
    return out;
  }

  /** The text with its placeholders put back. */
  restore(text: string, escape = false): string {
    return replaceSpans(text, this.restorations(text, escape));
  }

  toJSON(): string {
    return '[pseudonyms]';
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `Pseudonyms(${this.size})`;
  }
}

/** Applies sorted, non-overlapping replacements in one pass. */
export function replaceSpans(text: string, spans: readonly Replacement[]): string {
  if (spans.length === 0) return text;
  const parts: string[] = [];
  let at = 0;
  for (const span of spans) {
    parts.push(text.slice(at, span.start), span.replacement);
    at = span.end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

/** A buffered answer with its placeholders restored; JSON and SSE bodies get JSON-escaped values. */
export function restoreAnswer(body: Buffer, contentType: string, pseudonyms: Pseudonyms | undefined): Buffer {
  if (!pseudonyms || pseudonyms.size === 0) return body;
  const text = body.toString('utf8');
  const restored = pseudonyms.restore(text, /json|event-stream/i.test(contentType));
  return restored === text ? body : Buffer.from(restored, 'utf8');
}
