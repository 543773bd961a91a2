/**
 * Reading streamed LLM answers: an incremental SSE parser, an NDJSON line reader, and the per-vendor
 * rules (as data) that pull the answer text out of each frame and recognise the end marker.
 *
 * The gateway never streams to its client (spec, "Gateway pipeline": it buffers the whole upstream
 * answer and returns it as one body); these readers let it know when a stream is complete and give
 * the response scanner the reassembled answer text.
 */

/** How a streamed body is framed: `text/event-stream`, or one JSON object per line. */
export type StreamFormat = 'sse' | 'ndjson';

/** One dispatched server-sent event. `data` joins multi-line data with `\n` (WHATWG rules). */
export interface SseEvent {
  event: string | undefined;
  data: string;
  id: string | undefined;
}

/** The stream format a response content type announces, or undefined for a plain body. */
export function streamFormatOf(contentType: string | undefined): StreamFormat | undefined {
  // Most answers are JSON: decided without splitting or lower-casing.
  if (contentType === undefined || contentType.startsWith('application/json')) return undefined;
  const mime = (contentType ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';
  if (mime === 'text/event-stream') return 'sse';
  if (mime === 'application/x-ndjson' || mime === 'application/ndjson' || mime === 'application/jsonl' || mime === 'application/x-jsonlines') {
    return 'ndjson';
  }
  return undefined;
}

/**
 * Incremental SSE parser (WHATWG event-stream rules): lines end in LF, CRLF or CR (a CRLF split
 * across two chunks is one line end); `:` lines are comments; a blank line dispatches the event;
 * a field without a colon has an empty value; one leading space of a value is dropped.
 */
export class SseParser {
  private buffer = '';
  private pendingCr = false;
  private eventName: string | undefined;
  private data: string[] = [];
  private lastId: string | undefined;
  private hasFields = false;

  /** Feeds decoded text; returns the events completed by it. */
  push(text: string): SseEvent[] {
    const out: SseEvent[] = [];
    if (text === '') return out;
    let start = 0;
    let i = 0;
    if (this.pendingCr && text.startsWith('\n')) {
      start = 1;
      i = 1;
    }
    this.pendingCr = false;
    for (; i < text.length; i += 1) {
      const c = text.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      this.line(this.buffer + text.slice(start, i), out);
      this.buffer = '';
      if (c === 13) {
        if (i + 1 < text.length) {
          if (text.charCodeAt(i + 1) === 10) i += 1;
        } else {
          this.pendingCr = true;
        }
      }
      start = i + 1;
    }
    this.buffer += text.slice(start);
    return out;
  }

  /** End of input: a last line without its terminator and an undispatched event still count. */
  end(): SseEvent[] {
    const out: SseEvent[] = [];
    if (this.buffer !== '') this.line(this.buffer, out);
    this.buffer = '';
    this.line('', out);
    return out;
  }

  private line(line: string, out: SseEvent[]): void {
    if (line === '') {
      if (this.hasFields && (this.data.length > 0 || this.eventName !== undefined)) {
        out.push({ event: this.eventName, data: this.data.join('\n'), id: this.lastId });
      }
      this.eventName = undefined;
      this.data = [];
      this.hasFields = false;
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    this.hasFields = true;
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.eventName = value;
    else if (field === 'id' && !value.includes('\0')) this.lastId = value;
    // `retry` and unknown fields are ignored.
  }
}

/** Parses a whole SSE body at once. */
export function parseSse(body: string): SseEvent[] {
  const parser = new SseParser();
  return [...parser.push(body), ...parser.end()];
}

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

function isEndMarker(format: StreamFormat, frame: unknown, raw: { data?: string; event?: string }): boolean {
  return END_MARKERS.some((m) => {
    if (m.format !== format) return false;
    if (m.data !== undefined) return raw.data === m.data;
    if (m.event !== undefined) return raw.event === m.event;
    if (m.path !== undefined) return valuesAt(frame, m.path).some((v) => v === m.equals);
    return false;
  });
}

/** Reassembles answer text while a stream is read, and says when its end marker went by. */
export interface StreamAssembler {
  readonly format: StreamFormat;
  /** Feeds raw body bytes (UTF-8 sequences may be split across chunks). Ignored after the end marker. */
  push(chunk: Uint8Array): void;
  /** End of the body: flushes a last unterminated frame. */
  finish(): void;
  /** The end marker was seen. */
  readonly done: boolean;
  /** Frames that carried answer text. */
  readonly pieces: number;
  /** The answer text so far; several answers (choices) are joined by a blank line, in slot order. */
  readonly text: string;
}

export function createStreamAssembler(format: StreamFormat, rules: readonly DeltaRule[] = DELTA_RULES): StreamAssembler {
  const decoder = new TextDecoder('utf-8');
  const parser = format === 'sse' ? new SseParser() : undefined;
  const slots = new Map<string, string>();
  let lineBuffer = '';
  let done = false;
  let pieces = 0;

  const addFrame = (frame: unknown): void => {
    const found = extractDelta(frame, format, rules);
    if (!found) return;
    let added = false;
    for (const [slot, text] of found) {
      if (text === '') continue;
      slots.set(slot, (slots.get(slot) ?? '') + text);
      added = true;
    }
    if (added) pieces += 1;
  };
  const onEvents = (events: SseEvent[]): void => {
    for (const event of events) {
      if (done) return;
      const frame = parseJson(event.data);
      if (isEndMarker('sse', frame, { data: event.data, event: event.event })) {
        // A marker frame may still carry text (none of the known ones do, but be safe).
        if (frame !== undefined) addFrame(frame);
        done = true;
        return;
      }
      if (frame !== undefined) addFrame(frame);
    }
  };
  const onLine = (line: string): void => {
    if (done || line.trim() === '') return;
    const frame = parseJson(line);
    if (frame === undefined) return;
    addFrame(frame);
    if (isEndMarker('ndjson', frame, {})) done = true;
  };
  const onText = (text: string): void => {
    if (parser) return onEvents(parser.push(text));
    lineBuffer += text;
    let nl = lineBuffer.indexOf('\n');
    while (nl >= 0 && !done) {
      onLine(lineBuffer.slice(0, nl));
      lineBuffer = lineBuffer.slice(nl + 1);
      nl = lineBuffer.indexOf('\n');
    }
  };

  return {
    format,
    push(chunk) {
      if (done) return;
      onText(decoder.decode(chunk, { stream: true }));
    },
    finish() {
      if (done) return;
      const rest = decoder.decode();
      if (rest !== '') onText(rest);
      if (done) return;
      if (parser) onEvents(parser.end());
      else {
        onLine(lineBuffer);
        lineBuffer = '';
      }
    },
    get done() {
      return done;
    },
    get pieces() {
      return pieces;
    },
    get text() {
      return joinSlots(slots);
    },
  };
}

function joinSlots(slots: Map<string, string>): string {
  if (slots.size <= 1) return slots.values().next().value ?? '';
  const keys = [...slots.keys()].sort((a, b) => {
    const na = Number(a);
    const nb = Number(b);
    return Number.isFinite(na) && Number.isFinite(nb) ? na - nb : a.localeCompare(b);
  });
  return keys.map((k) => slots.get(k) ?? '').join('\n\n');
}

function parseJson(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '' || (trimmed[0] !== '{' && trimmed[0] !== '[')) return undefined;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return undefined;
  }
}

/** Reassembles a whole streamed body at once (tests, and callers holding a complete body). */
export function assembleStream(format: StreamFormat, body: string | Uint8Array, rules: readonly DeltaRule[] = DELTA_RULES): { text: string; done: boolean; pieces: number } {
  const assembler = createStreamAssembler(format, rules);
  assembler.push(typeof body === 'string' ? new TextEncoder().encode(body) : body);
  assembler.finish();
  return { text: assembler.text, done: assembler.done, pieces: assembler.pieces };
}

/**
 * The answer text of a stream delivered as one JSON array of chunks (vendor_d streamGenerateContent
 * without `alt=sse`), read with the SSE frame rules; undefined when the value is not such an array.
 */
export function assembleJsonChunks(value: unknown, rules: readonly DeltaRule[] = DELTA_RULES): string | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const slots = new Map<string, string>();
  let claimed = false;
  for (const frame of value) {
    const found = extractDelta(frame, 'sse', rules);
    if (!found) continue;
    claimed = true;
    for (const [slot, text] of found) slots.set(slot, (slots.get(slot) ?? '') + text);
  }
  return claimed ? joinSlots(slots) : undefined;
}
