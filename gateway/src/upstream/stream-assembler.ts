// Reassembling a streamed answer's text while it is read (and from a whole streamed body), with the
// vendor stream rules.
import { createFrameReader, type SseEvent, type StreamFormat } from './stream-parser.js';
import { DELTA_RULES, extendCumulative, extractDelta, extractToolArguments, isEndMarker, readDelta, type DeltaRule } from './stream-rules.js';

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
  /** The tool-call arguments so far, one text per call (its fragments joined). */
  readonly toolArguments: string[];
  /** The tool calls' names so far, one per call. */
  readonly toolNames: string[];
}

/** A stream's tool calls as read so far: per call slot, its arguments' text and its name. */
interface ToolCalls {
  arguments: Map<string, string>;
  names: Map<string, string>;
}
const noToolCalls = (): ToolCalls => ({ arguments: new Map(), names: new Map() });

export function createStreamAssembler(format: StreamFormat, rules: readonly DeltaRule[] = DELTA_RULES): StreamAssembler {
  const reader = createFrameReader(format);
  const slots = new Map<string, string>();
  const tools = noToolCalls();
  let done = false;
  let pieces = 0;

  const addFrame = (frame: unknown): void => {
    addToolArguments(tools, frame);
    const found = readDelta(frame, format, rules);
    if (!found) return;
    let added = false;
    for (const [slot, text] of found.pieces) {
      if (text === '') continue;
      const previous = slots.get(slot) ?? '';
      const next = found.rule.cumulative ? extendCumulative(previous, text) : previous + text;
      if (next.length === previous.length) continue;
      slots.set(slot, next);
      added = true;
    }
    if (added) pieces += 1;
  };
  const onFrames = (frames: SseEvent[]): void => {
    for (const event of frames) {
      if (done) return;
      const frame = parseJson(event.data);
      // A marker frame may still carry text (a vendor_g done line may).
      if (frame !== undefined) addFrame(frame);
      if (isEndMarker(format, frame, { data: event.data, event: event.event })) done = true;
    }
  };

  return {
    format,
    push(chunk) {
      if (done) return;
      onFrames(reader.push(chunk));
    },
    finish() {
      if (done) return;
      onFrames(reader.end());
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
    get toolArguments() {
      return [...tools.arguments.values()];
    },
    get toolNames() {
      return [...tools.names.values()];
    },
  };
}

function addToolArguments(tools: ToolCalls, frame: unknown): void {
  for (const place of extractToolArguments(frame)) {
    const texts = place.encoding === 'name' ? tools.names : tools.arguments;
    const previous = texts.get(place.slot) ?? '';
    texts.set(place.slot, place.cumulative ? extendCumulative(previous, place.text) : previous + place.text);
  }
}

/** The tool calls of a stream delivered as one JSON array of chunks: one arguments text and one name per call. */
export function jsonChunksToolCalls(value: unknown): { arguments: string[]; names: string[] } {
  const tools = noToolCalls();
  if (Array.isArray(value)) for (const frame of value) addToolArguments(tools, frame);
  return { arguments: [...tools.arguments.values()], names: [...tools.names.values()] };
}

/** The tool-call arguments of a stream delivered as one JSON array of chunks, one text per call. */
export const jsonChunksToolArguments = (value: unknown): string[] => jsonChunksToolCalls(value).arguments;

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
