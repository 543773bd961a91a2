// The vendor stream formats the gateway scans incrementally, as data: where a frame carries answer
// text (per answer slot), how that text is written back, how the stream ends and how a mid-stream
// refusal is told in the vendor's own terms. Other formats keep the buffered path.
import { valuesAt, type JsonPath } from '../upstream/stream-rules.js';

/** One SSE event as it goes to the client. */
export interface OutgoingEvent {
  event?: string | undefined;
  data: string;
}

export interface StreamCodec {
  readonly name: string;
  /** Upstream paths (target path suffixes) whose streams this codec reads. */
  readonly pathSuffixes: readonly string[];
  /** The path itself asks for a stream (no `stream: true` in the body). */
  readonly streamingPath?: boolean;
  /** Only frames whose value at `path` equals `equals` carry text. */
  readonly when?: { readonly path: JsonPath; readonly equals: string };
  /** An array of parallel answers (choices); absent = the frame is one item. */
  readonly items?: JsonPath;
  /** Within an item, its answer slot (choice index, content block index). */
  readonly slot: JsonPath;
  /** A second part of the slot key (the content part of an output item). */
  readonly slotPart?: JsonPath;
  /** Within an item, the parent objects of the text (`*` for every element) and the text's key. */
  readonly textParent: JsonPath;
  readonly textKey: string;
  /** The raw data of the end marker, or its event name; neither: the stream ends with its body. */
  readonly end: { readonly data?: string; readonly event?: string };
  /** The events that end a refused stream: the vendor's error event, then its end marker. */
  refusal(error: { message: string; code: string; type: string; traceId: string }): OutgoingEvent[];
  /**
   * Places where a frame repeats a slot's whole text so far (the Responses API's `*.done` events and
   * `response.completed`): they get the slot's text as sent to the client.
   */
  repeats?(frame: Record<string, unknown>): RepeatPlace[];
}

/** A whole-text repeat: `parent[key]` holds the slot's text. */
export interface RepeatPlace {
  slot: string;
  parent: Record<string, unknown>;
  key: string;
}

const objectOf = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/** The output_text parts of a Responses API output item, as repeats of their slots. */
function itemRepeats(item: unknown): RepeatPlace[] {
  const o = objectOf(item);
  if (!o || !Array.isArray(o.content)) return [];
  const out: RepeatPlace[] = [];
  o.content.forEach((part, index) => {
    const p = objectOf(part);
    if (p && typeof p.text === 'string') out.push({ slot: `${String(o.id)}:${index}`, parent: p, key: 'text' });
  });
  return out;
}

function responsesRepeats(frame: Record<string, unknown>): RepeatPlace[] {
  const at = `${String(frame.item_id)}:${String(frame.content_index)}`;
  switch (frame.type) {
    case 'response.output_text.done':
      return typeof frame.text === 'string' ? [{ slot: at, parent: frame, key: 'text' }] : [];
    case 'response.content_part.added':
    case 'response.content_part.done': {
      const part = objectOf(frame.part);
      return part && typeof part.text === 'string' ? [{ slot: at, parent: part, key: 'text' }] : [];
    }
    case 'response.output_item.added':
    case 'response.output_item.done':
      return itemRepeats(frame.item);
    case 'response.created':
    case 'response.in_progress':
    case 'response.completed':
    case 'response.incomplete':
    case 'response.failed': {
      const output = objectOf(frame.response)?.output;
      return Array.isArray(output) ? output.flatMap(itemRepeats) : [];
    }
    default:
      return [];
  }
}

export const STREAM_CODECS: readonly StreamCodec[] = [
  {
    name: 'chat.completion.chunk',
    pathSuffixes: ['/chat/completions'],
    items: ['choices'],
    slot: ['index'],
    textParent: ['delta'],
    textKey: 'content',
    end: { data: '[DONE]' },
    // The OpenAI SDKs raise an APIError for a stream frame carrying `error`.
    refusal: (e) => [
      { data: JSON.stringify({ error: { message: e.message, type: e.type, code: e.code, trace_id: e.traceId } }) },
      { data: '[DONE]' },
    ],
  },
  {
    name: 'messages content_block_delta',
    pathSuffixes: ['/messages'],
    when: { path: ['type'], equals: 'content_block_delta' },
    slot: ['index'],
    textParent: ['delta'],
    textKey: 'text',
    end: { event: 'message_stop' },
    refusal: (e) => [
      { event: 'error', data: JSON.stringify({ type: 'error', error: { type: e.type, message: e.message, code: e.code, trace_id: e.traceId } }) },
      { event: 'message_stop', data: JSON.stringify({ type: 'message_stop' }) },
    ],
  },
  {
    name: 'responses output_text.delta',
    pathSuffixes: ['/responses'],
    when: { path: ['type'], equals: 'response.output_text.delta' },
    slot: ['item_id'],
    slotPart: ['content_index'],
    textParent: [],
    textKey: 'delta',
    end: { event: 'response.completed' },
    // The OpenAI SDKs raise an APIError for an `error` event of a Responses stream.
    refusal: (e) => [{ event: 'error', data: JSON.stringify({ type: 'error', code: e.code, message: e.message, param: null, trace_id: e.traceId }) }],
    repeats: responsesRepeats,
  },
  {
    name: 'gemini streamGenerateContent (alt=sse)',
    pathSuffixes: [':streamGenerateContent'],
    streamingPath: true,
    items: ['candidates'],
    slot: ['index'],
    textParent: ['content', 'parts', '*'],
    textKey: 'text',
    end: {},
    // The Gemini API's error body, as one stream frame; its stream has no end marker.
    refusal: (e) => [{ data: JSON.stringify({ error: { code: 451, message: e.message, status: e.code, trace_id: e.traceId } }) }],
  },
];

/** The codec reading the streams of an upstream URL, or undefined (the buffered path). */
export function codecForUrl(url: string): StreamCodec | undefined {
  let path: string;
  try {
    path = new URL(url).pathname.replace(/\/+$/, '');
  } catch {
    return undefined;
  }
  return STREAM_CODECS.find((c) => c.pathSuffixes.some((suffix) => path.endsWith(suffix)));
}

/** One text-bearing place of a frame: its slot, its text, and the object holding it. */
export interface TextPlace {
  slot: string;
  text: string;
  parent: Record<string, unknown>;
}

/** The text places of a frame (an empty list when it carries none). */
export function textPlaces(codec: StreamCodec, frame: unknown): TextPlace[] {
  if (codec.when && !valuesAt(frame, codec.when.path).some((v) => v === codec.when?.equals)) return [];
  const items = codec.items ? valuesAt(frame, codec.items).flatMap((v) => (Array.isArray(v) ? v : [])) : [frame];
  const places: TextPlace[] = [];
  items.forEach((item, position) => {
    const slotValue = valuesAt(item, codec.slot)[0];
    const partValue = codec.slotPart ? valuesAt(item, codec.slotPart)[0] : undefined;
    const slot = codec.slotPart ? `${String(slotValue)}:${String(partValue)}` : slotValue;
    for (const parent of valuesAt(item, codec.textParent)) {
      if (parent === null || typeof parent !== 'object' || Array.isArray(parent)) continue;
      const text = (parent as Record<string, unknown>)[codec.textKey];
      if (typeof text !== 'string') continue;
      places.push({ slot: typeof slot === 'number' || typeof slot === 'string' ? String(slot) : String(position), text, parent: parent as Record<string, unknown> });
    }
  });
  return places;
}

export function isStreamEnd(codec: StreamCodec, event: { event?: string | undefined; data: string }): boolean {
  if (codec.end.data !== undefined && event.data.trim() === codec.end.data) return true;
  return codec.end.event !== undefined && event.event === codec.end.event;
}

/** SSE bytes of events; data with line breaks becomes several data lines. */
export function encodeEvents(events: readonly OutgoingEvent[]): string {
  let out = '';
  for (const e of events) {
    if (e.event !== undefined) out += `event: ${e.event}\n`;
    for (const line of e.data.split('\n')) out += `data: ${line}\n`;
    out += '\n';
  }
  return out;
}
