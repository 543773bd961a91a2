// The vendor stream formats the gateway scans incrementally: the codecs are data of each vendor's
// folder (core/src/vendors/<vendor>, gathered in STREAM_CODECS): where a frame carries answer text
// (per answer slot), how that text is written back, how the stream ends and how a mid-stream refusal
// is told in the vendor's own terms. Other formats keep the buffered path.
import { STREAM_CODECS, type OutgoingEvent, type StreamCodec, type StreamFormat, type ToolArgumentsEncoding } from '@palisade/core';
import { arraysAt, scalarKey, toolArgumentPlaces, valuesAt } from '../upstream/stream-rules.js';

export { STREAM_CODECS, type OutgoingEvent, type RepeatPlace, type StreamCodec } from '@palisade/core';

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

/** One text-bearing place of a frame: its slot, its text, and the object holding it at `key`. */
export interface TextPlace {
  slot: string;
  text: string;
  parent: Record<string, unknown>;
  key: string;
  /** Tool-call arguments: JSON text fragments, or a whole JSON value (its text is the value serialised). Absent: answer text. */
  encoding?: ToolArgumentsEncoding;
  /** The text is the slot's whole text so far (a cumulative stream), not a delta. */
  cumulative?: boolean;
}

/** How a codec's stream is framed. */
export const formatOf = (codec: StreamCodec): StreamFormat => codec.format ?? 'sse';

/** The request body asks for a stream the codec reads (the path may ask by itself). */
export function asksForStream(codec: StreamCodec, body: unknown): boolean {
  if (codec.streamingPath) return true;
  const flag = codec.streamFlag ?? { path: ['stream'] };
  const values = valuesAt(body, flag.path);
  return values.length === 0 ? flag.byDefault === true && body !== null && typeof body === 'object' : values[0] === true;
}

/** The text places of a frame (an empty list when it carries none): its answer text, then its tool-call arguments. */
export function textPlaces(codec: StreamCodec, frame: unknown): TextPlace[] {
  const places = answerPlaces(codec, frame);
  for (const channel of codec.toolArguments ?? []) places.push(...toolArgumentPlaces(channel, frame));
  return places;
}

function answerPlaces(codec: StreamCodec, frame: unknown): TextPlace[] {
  if (codec.when && !valuesAt(frame, codec.when.path).some((v) => v === codec.when?.equals)) return [];
  const items = codec.items ? arraysAt(frame, codec.items) : [frame];
  const places: TextPlace[] = [];
  items.forEach((item, position) => {
    const slotValue = valuesAt(item, codec.slot)[0];
    const partValue = codec.slotPart ? valuesAt(item, codec.slotPart)[0] : undefined;
    const slot = codec.slotPart ? `${String(slotValue)}:${String(partValue)}` : slotValue;
    for (const parent of valuesAt(item, codec.textParent)) {
      if (parent === null || typeof parent !== 'object' || Array.isArray(parent)) continue;
      const text = (parent as Record<string, unknown>)[codec.textKey];
      if (typeof text !== 'string') continue;
      places.push({ slot: scalarKey(slot, position), text, parent: parent as Record<string, unknown>, key: codec.textKey, ...(codec.cumulative ? { cumulative: true } : {}) });
    }
  });
  return places;
}

export function isStreamEnd(codec: StreamCodec, event: { event?: string | undefined; data: string }, frame: unknown): boolean {
  const end = codec.end;
  if (end.data !== undefined && event.data.trim() === end.data) return true;
  if (end.path !== undefined && valuesAt(frame, end.path).some((v) => v === end.equals)) return true;
  return end.event !== undefined && event.event === end.event;
}

/** The stream bytes of events: SSE (data with line breaks becomes several data lines), or one NDJSON line each. */
export function encodeEvents(format: StreamFormat, events: readonly OutgoingEvent[]): string {
  let out = '';
  if (format === 'ndjson') {
    // A line's data is one JSON text (JSON.stringify writes no line break), or the upstream's line as it came.
    for (const e of events) out += `${e.data}\n`;
    return out;
  }
  for (const e of events) {
    if (e.event !== undefined) out += `event: ${e.event}\n`;
    for (const line of e.data.split('\n')) out += `data: ${line}\n`;
    out += '\n';
  }
  return out;
}
