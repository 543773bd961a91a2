// The per-vendor stream rules, as data: where a frame of each streaming format carries answer text,
// and how the end of a stream is recognised.
import type { StreamFormat } from './stream-parser.js';

/** A step of a path into a JSON frame: a key, an array index, or `*` for every element. */
export type PathStep = string | number;
export type JsonPath = readonly PathStep[];

/**
 * A rule that reads answer text out of one stream frame. A rule claims a frame when its `when`
 * condition holds and its `text` path reaches at least one string (an empty string counts, so a
 * role-only first chunk is claimed and adds nothing). The first claiming rule wins.
 */
export interface DeltaRule {
  readonly name: string;
  /** Vendors whose streams use this frame shape (documentation; matching is by shape). */
  readonly vendors: readonly string[];
  readonly format: StreamFormat;
  /** Only frames whose value at `path` equals `equals`. */
  readonly when?: { readonly path: JsonPath; readonly equals: string | number | boolean };
  /** An array of parallel answers (choices): each element is read separately, keyed by `slot`. */
  readonly items?: JsonPath;
  /** Within an item, the key of its answer (choice `index`); the item's position when absent. */
  readonly slot?: JsonPath;
  /** Path to the text, from the item (or the frame when there are no items); `*` collects every element. */
  readonly text: JsonPath;
}

/** The delta readers of every streaming vendor format, as data. Order matters: first claim wins. */
export const DELTA_RULES: readonly DeltaRule[] = [
  {
    name: 'messages content_block_delta',
    vendors: ['vendor_b'],
    format: 'sse',
    when: { path: ['type'], equals: 'content_block_delta' },
    text: ['delta', 'text'],
  },
  {
    name: 'chat.completion.chunk',
    vendors: ['vendor_a', 'vendor_c', 'vendor_h', 'vendor_i'],
    format: 'sse',
    items: ['choices'],
    slot: ['index'],
    text: ['delta', 'content'],
  },
  {
    name: 'legacy completions',
    vendors: ['vendor_a', 'vendor_c', 'vendor_h'],
    format: 'sse',
    items: ['choices'],
    slot: ['index'],
    text: ['text'],
  },
  {
    name: 'gemini streamGenerateContent',
    vendors: ['vendor_d'],
    format: 'sse',
    text: ['candidates', 0, 'content', 'parts', '*', 'text'],
  },
  {
    name: 'ollama chat',
    vendors: ['vendor_g'],
    format: 'ndjson',
    text: ['message', 'content'],
  },
  {
    name: 'ollama generate',
    vendors: ['vendor_g'],
    format: 'ndjson',
    text: ['response'],
  },
];

/** How the end of a stream is recognised, as data. A frame matching any marker completes the stream. */
export interface EndMarker {
  readonly name: string;
  readonly format: StreamFormat;
  /** The raw SSE data equals this (e.g. `[DONE]`). */
  readonly data?: string;
  /** The SSE event name equals this. */
  readonly event?: string;
  /** The JSON frame's value at `path` equals `equals`. */
  readonly path?: JsonPath;
  readonly equals?: string | number | boolean;
}

export const END_MARKERS: readonly EndMarker[] = [
  { name: 'data: [DONE]', format: 'sse', data: '[DONE]' },
  { name: 'vendor_b message_stop event', format: 'sse', event: 'message_stop' },
  { name: 'vendor_b message_stop frame', format: 'sse', path: ['type'], equals: 'message_stop' },
  { name: 'vendor_g done line', format: 'ndjson', path: ['done'], equals: true },
];

/** The values a path reaches (`*` fans out over arrays and objects). */
export function valuesAt(value: unknown, path: JsonPath): unknown[] {
  let current: unknown[] = [value];
  for (const step of path) {
    const next: unknown[] = [];
    for (const v of current) {
      if (v === null || typeof v !== 'object') continue;
      if (step === '*') {
        next.push(...(Array.isArray(v) ? v : Object.values(v)));
      } else if (typeof step === 'number') {
        if (Array.isArray(v) && step < v.length) next.push(v[step]);
      } else if (!Array.isArray(v) && Object.hasOwn(v, step)) {
        next.push((v as Record<string, unknown>)[step]);
      }
    }
    current = next;
    if (current.length === 0) break;
  }
  return current;
}

function textsAt(value: unknown, path: JsonPath): string[] | undefined {
  const strings = valuesAt(value, path).filter((v): v is string => typeof v === 'string');
  return strings.length > 0 ? strings : undefined;
}

/** Text pieces of one frame, keyed by answer slot; undefined when no rule claims the frame. */
export function extractDelta(frame: unknown, format: StreamFormat, rules: readonly DeltaRule[] = DELTA_RULES): Array<[string, string]> | undefined {
  for (const rule of rules) {
    if (rule.format !== format) continue;
    if (rule.when && !valuesAt(frame, rule.when.path).some((v) => v === rule.when?.equals)) continue;
    if (rule.items === undefined) {
      const texts = textsAt(frame, rule.text);
      if (texts) return [['0', texts.join('')]];
      continue;
    }
    const items = valuesAt(frame, rule.items).flatMap((v) => (Array.isArray(v) ? v : []));
    const pieces: Array<[string, string]> = [];
    items.forEach((item, position) => {
      const texts = textsAt(item, rule.text);
      if (!texts) return;
      const slot = rule.slot === undefined ? undefined : valuesAt(item, rule.slot)[0];
      pieces.push([typeof slot === 'number' || typeof slot === 'string' ? String(slot) : String(position), texts.join('')]);
    });
    if (pieces.length > 0) return pieces;
  }
  return undefined;
}

/** The frame (or its raw SSE data / event name) is an end marker of its format. */
export function isEndMarker(format: StreamFormat, frame: unknown, raw: { data?: string; event?: string }): boolean {
  return END_MARKERS.some((m) => {
    if (m.format !== format) return false;
    if (m.data !== undefined) return raw.data === m.data;
    if (m.event !== undefined) return raw.event === m.event;
    if (m.path !== undefined) return valuesAt(frame, m.path).some((v) => v === m.equals);
    return false;
  });
}
