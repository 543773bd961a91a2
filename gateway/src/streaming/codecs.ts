// The vendor stream formats the gateway scans incrementally: the codecs are data of each vendor's
// folder (core/src/vendors/<vendor>, gathered in STREAM_CODECS): where a frame carries answer text
// (per answer slot), how that text is written back, how the stream ends and how a mid-stream refusal
// is told in the vendor's own terms. Other formats keep the buffered path.
import { STREAM_CODECS, toolSlotKey, type OutgoingEvent, type StreamCodec, type ToolArgumentsChannel, type ToolArgumentsEncoding } from '@palisade/core';
import { valuesAt } from '../upstream/stream-rules.js';

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
}

const scalarKey = (value: unknown, position: number): string => (typeof value === 'number' || typeof value === 'string' ? String(value) : String(position));
const arraysAt = (value: unknown, path: readonly (string | number)[]): unknown[] => valuesAt(value, path).flatMap((v) => (Array.isArray(v) ? v : []));

/** The tool-call arguments of a frame in one channel, each call in its own slot. */
function toolPlaces(channel: ToolArgumentsChannel, frame: unknown): TextPlace[] {
  if (channel.when && !valuesAt(frame, channel.when.path).some((v) => v === channel.when?.equals)) return [];
  const places: TextPlace[] = [];
  const items = channel.items ? arraysAt(frame, channel.items) : [frame];
  items.forEach((item, position) => {
    const slot = scalarKey(valuesAt(item, channel.slot)[0], position);
    const calls = channel.calls ? arraysAt(item, channel.calls) : [item];
    calls.forEach((call, callPosition) => {
      const key = channel.calls ? toolSlotKey(slot, scalarKey(channel.callSlot ? valuesAt(call, channel.callSlot)[0] : undefined, callPosition)) : toolSlotKey(slot);
      for (const parent of valuesAt(call, channel.parent)) {
        if (parent === null || typeof parent !== 'object' || Array.isArray(parent)) continue;
        const value = (parent as Record<string, unknown>)[channel.key];
        if (value === undefined || value === null) continue;
        // Arguments that are not the text the channel expects are still read: as a JSON value.
        const encoding = channel.encoding === 'json_text' && typeof value === 'string' ? 'json_text' : 'object';
        const text = encoding === 'json_text' ? (value as string) : JSON.stringify(value);
        places.push({ slot: key, text, parent: parent as Record<string, unknown>, key: channel.key, encoding });
      }
    });
  });
  return places;
}

/** The text places of a frame (an empty list when it carries none): its answer text, then its tool-call arguments. */
export function textPlaces(codec: StreamCodec, frame: unknown): TextPlace[] {
  const places = answerPlaces(codec, frame);
  for (const channel of codec.toolArguments ?? []) places.push(...toolPlaces(channel, frame));
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
      places.push({ slot: scalarKey(slot, position), text, parent: parent as Record<string, unknown>, key: codec.textKey });
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
