// The texts of the values a mapping's path matched: strings, content parts and messages, each with its
// location, in document order and each location once.
import type { JsonPointer } from './json-pointer.js';

/** A text of the body and where it is. */
export interface TextPart {
  pointer: JsonPointer;
  text: string;
}

/** The texts of matched values; overlapping paths (e.g. `..`) must not double a text. */
export function textParts(matches: ReadonlyArray<{ pointer: JsonPointer; value: unknown }>): TextPart[] {
  const out: TextPart[] = [];
  const seen = new Set<string>();
  for (const m of matches) collectText(m.value, m.pointer, out, 0);
  return out.filter((p) => {
    const key = JSON.stringify(p.pointer);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The texts joined, one per line. */
export function joinText(parts: TextPart[]): string {
  return parts.map((p) => p.text).join('\n');
}

// Content-part types that carry user-visible text (vendor_a multimodal, vendor_b blocks, responses API).
const TEXT_PART_TYPES = new Set(['text', 'input_text', 'output_text']);
// Bounds the walk into nested content (tool results inside messages and the like).
const MAX_DEPTH = 8;

/**
 * Collects the texts of a matched value: a string; an array of strings or content parts; a part
 * `{type:"text", text}`; a message `{role, content}` / `{role, text}` / `{role, parts}`.
 * Non-text values (numbers, images, tool calls) are ignored.
 */
function collectText(value: unknown, pointer: JsonPointer, out: TextPart[], depth: number): void {
  if (depth > MAX_DEPTH) return;
  if (typeof value === 'string') {
    if (value !== '') out.push({ pointer, text: value });
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => collectText(item, [...pointer, i], out, depth + 1));
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const o = value as Record<string, unknown>;
  const type = typeof o.type === 'string' ? o.type : undefined;
  if (typeof o.text === 'string' && (type === undefined || TEXT_PART_TYPES.has(type))) {
    collectText(o.text, [...pointer, 'text'], out, depth + 1);
  } else if ('content' in o) {
    collectText(o.content, [...pointer, 'content'], out, depth + 1);
  } else if (type === 'function_call_output' && 'output' in o) {
    // A tool's result sent back in a Responses API input: text the model will read.
    collectText(o.output, [...pointer, 'output'], out, depth + 1);
  } else if (Array.isArray(o.parts)) {
    collectText(o.parts, [...pointer, 'parts'], out, depth + 1);
  }
}
