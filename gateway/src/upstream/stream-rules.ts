// Reading answer text and end markers out of stream frames with the vendor stream rules (the data
// lives in each vendor's folder, core/src/vendors/<vendor>: DELTA_RULES and END_MARKERS gather them).
import { DELTA_RULES, END_MARKERS, STREAM_CODECS, toolNameSlotKey, toolSlotKey, type DeltaRule, type JsonPath, type StreamFormat, type ToolArgumentsChannel, type ToolArgumentsEncoding } from '@palisade/core';

export { DELTA_RULES, END_MARKERS, type DeltaRule, type EndMarker, type JsonPath, type PathStep } from '@palisade/core';

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

/** A slot key: the value found (a number or a string), else the position. */
export const scalarKey = (value: unknown, position: number): string => (typeof value === 'number' || typeof value === 'string' ? String(value) : String(position));
/** The elements of the arrays a path reaches. */
export const arraysAt = (value: unknown, path: readonly (string | number)[]): unknown[] => valuesAt(value, path).flatMap((v) => (Array.isArray(v) ? v : []));

/** One tool call's arguments in a frame: its slot, its text (a whole value serialised), the object holding it at `key`. */
export interface ToolArgumentsPlace {
  slot: string;
  text: string;
  parent: Record<string, unknown>;
  key: string;
  encoding: ToolArgumentsEncoding;
  /** The text is the call's whole arguments so far, not a fragment. */
  cumulative: boolean;
}

/** A place's encoding: the channel's, or (arguments not the text the channel expects) a JSON value. */
function encodingOf(channel: ToolArgumentsChannel, value: unknown): ToolArgumentsEncoding {
  if (channel.encoding === 'object' || typeof value !== 'string') return 'object';
  return channel.encoding;
}

/** The tool-call arguments (or names) of a frame in one channel, each call in its own slot. */
export function toolArgumentPlaces(channel: ToolArgumentsChannel, frame: unknown): ToolArgumentsPlace[] {
  if (channel.when && !valuesAt(frame, channel.when.path).some((v) => v === channel.when?.equals)) return [];
  const slotKey = channel.encoding === 'name' ? toolNameSlotKey : toolSlotKey;
  const places: ToolArgumentsPlace[] = [];
  const items = channel.items ? arraysAt(frame, channel.items) : [frame];
  items.forEach((item, position) => {
    const slot = scalarKey(valuesAt(item, channel.slot)[0], position);
    const calls = channel.calls ? arraysAt(item, channel.calls) : [item];
    calls.forEach((call, callPosition) => {
      const key = channel.calls ? slotKey(slot, scalarKey(channel.callSlot ? valuesAt(call, channel.callSlot)[0] : undefined, callPosition)) : slotKey(slot);
      for (const parent of valuesAt(call, channel.parent)) {
        if (parent === null || typeof parent !== 'object' || Array.isArray(parent)) continue;
        const value = (parent as Record<string, unknown>)[channel.key];
        if (value === undefined || value === null) continue;
        // Arguments that are not the text the channel expects are still read: as a JSON value.
        const encoding = encodingOf(channel, value);
        const text = encoding === 'object' ? JSON.stringify(value) : (value as string);
        places.push({ slot: key, text, parent: parent as Record<string, unknown>, key: channel.key, encoding, cumulative: channel.cumulative === true });
      }
    });
  });
  return places;
}

/** Every vendor's tool-argument channels: the buffered reader finds tool calls by their shape, as it finds deltas. */
const TOOL_ARGUMENT_CHANNELS: readonly ToolArgumentsChannel[] = STREAM_CODECS.flatMap((codec) => codec.toolArguments ?? []);

/** The tool-call arguments of one frame, each call in its slot. */
export function extractToolArguments(frame: unknown): ToolArgumentsPlace[] {
  return TOOL_ARGUMENT_CHANNELS.flatMap((channel) => toolArgumentPlaces(channel, frame));
}

/**
 * A slot's text after a frame of a cumulative stream: the frame's whole text when it extends what the
 * slot had; otherwise both, so that text a later frame dropped is still scanned.
 */
export function extendCumulative(previous: string, whole: string): string {
  return whole.startsWith(previous) ? whole : `${previous}\n\n${whole}`;
}

function textsAt(value: unknown, path: JsonPath): string[] | undefined {
  const strings = valuesAt(value, path).filter((v): v is string => typeof v === 'string');
  return strings.length > 0 ? strings : undefined;
}

/** Text pieces of one frame, keyed by answer slot; undefined when no rule claims the frame. */
export function extractDelta(frame: unknown, format: StreamFormat, rules: readonly DeltaRule[] = DELTA_RULES): Array<[string, string]> | undefined {
  return readDelta(frame, format, rules)?.pieces;
}

/** The rule claiming a frame and the text pieces it reads, keyed by answer slot; undefined when no rule claims the frame. */
export function readDelta(frame: unknown, format: StreamFormat, rules: readonly DeltaRule[] = DELTA_RULES): { rule: DeltaRule; pieces: Array<[string, string]> } | undefined {
  for (const rule of rules) {
    if (rule.format !== format) continue;
    if (rule.when && !valuesAt(frame, rule.when.path).some((v) => v === rule.when?.equals)) continue;
    if (rule.items === undefined) {
      const texts = textsAt(frame, rule.text);
      if (texts) return { rule, pieces: [['0', texts.join('')]] };
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
    if (pieces.length > 0) return { rule, pieces };
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
