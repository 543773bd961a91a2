// The vendor stream formats the gateway scans incrementally, as data: where a frame carries answer
// text (per answer slot), how that text is written back, how the stream ends and how a mid-stream
// refusal is told in the vendor's own terms. Other formats keep the buffered path.
import { valuesAt, type JsonPath } from '../upstream/sse.js';

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
  /** Within an item, the parent objects of the text (`*` for every element) and the text's key. */
  readonly textParent: JsonPath;
  readonly textKey: string;
  /** The raw data of the end marker, or its event name; neither: the stream ends with its body. */
  readonly end: { readonly data?: string; readonly event?: string };
  /** The events that end a refused stream: the vendor's error event, then its end marker. */
  refusal(error: { message: string; code: string; type: string; traceId: string }): OutgoingEvent[];
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
    const slot = valuesAt(item, codec.slot)[0];
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
