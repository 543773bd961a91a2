// The token usage an upstream reported, read from its answer in each vendor format: the `usage`
// object of chat-completion style APIs (prompt/completion tokens, input/output tokens, camelCase
// variants), `usageMetadata` of gemini-style APIs, `meta.billed_units` of command-style APIs and the
// `prompt_eval_count`/`eval_count` of local-model servers, `result.usage` of vendor_j. Streams (SSE, NDJSON, a JSON array of
// chunks) report usage in one frame or cumulatively in several: the largest value of each side wins.
// The places and names are each vendor's data (core/src/vendors/<vendor>, gathered in USAGE_FIELDS).
import { USAGE_FIELDS, type JsonPath } from '@palisade/core';
import { parseFrames, type UpstreamResponse } from '../upstream/index.js';

export interface TokenUsage {
  input: number;
  output: number;
}

/** Cheap pre-check: without one of these names the answer carries no usage and is not parsed again. */
const MARKERS = USAGE_FIELDS.markers;

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
// vendor_j writes its counts as strings (int64 in JSON): digits only, at most 15 so the number is exact.
const DIGITS = /^\d{1,15}$/;
const count = (v: unknown): number | undefined =>
  typeof v === 'number' ? (Number.isFinite(v) && v >= 0 ? Math.round(v) : undefined) : typeof v === 'string' && DIGITS.test(v) ? Number(v) : undefined;
const first = (o: Json, keys: readonly string[]): number | undefined => {
  for (const key of keys) {
    const n = count(o[key]);
    if (n !== undefined) return n;
  }
  return undefined;
};

/** The object at a path of keys (no allocation: this runs for every answer that reports usage). */
const objectAt = (frame: Json, path: JsonPath): Json | undefined => {
  let value: unknown = frame;
  for (const key of path) {
    if (!isObject(value)) return undefined;
    value = value[String(key)];
  }
  return isObject(value) ? value : undefined;
};

const INPUT_KEYS = USAGE_FIELDS.input;
const OUTPUT_KEYS = USAGE_FIELDS.output;
// One literal: conditional spreads cost about 0.6 µs per answer on Node 20 (an unreported side reads as undefined).
const found = (input: number | undefined, output: number | undefined): Partial<TokenUsage> | undefined =>
  input !== undefined || output !== undefined ? { input, output } : undefined;

/** Usage found in one JSON frame (or answer), or undefined. */
export function usageOfFrame(frame: unknown): Partial<TokenUsage> | undefined {
  if (!isObject(frame)) return undefined;
  for (const path of USAGE_FIELDS.objects) {
    const u = objectAt(frame, path);
    if (!u) continue;
    const usage = found(first(u, INPUT_KEYS), first(u, OUTPUT_KEYS));
    if (usage) return usage;
  }
  for (const place of USAGE_FIELDS.counts) {
    const at = objectAt(frame, place.at);
    if (!at) continue;
    const usage = found(count(at[place.input]), count(at[place.output]));
    if (usage) return usage;
  }
  return undefined;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function frames(answer: UpstreamResponse, text: string): unknown[] {
  if (!answer.isEventStream) {
    const whole = parse(text);
    return Array.isArray(whole) ? whole : [whole];
  }
  const hasMarker = (s: string) => MARKERS.some((m) => s.includes(m));
  return parseFrames(answer.streamFormat ?? 'sse', text)
    .filter((e) => hasMarker(e.data))
    .map((e) => parse(e.data));
}

/** Where tokenUsageOf keeps what it read on the answer itself: a sampled call's upstream span and the usage recorder both ask, and the answer is parsed once. */
const READ_USAGE = Symbol('palisade.tokenUsage');
type AnswerWithUsage = UpstreamResponse & { [READ_USAGE]?: TokenUsage | null };

/** The usage the answer reports, or null when it reports none (or is not JSON); read once per answer. */
export function tokenUsageOf(answer: UpstreamResponse): TokenUsage | null {
  const read = answer as AnswerWithUsage;
  const known = read[READ_USAGE];
  if (known !== undefined) return known;
  const usage = readTokenUsage(answer);
  read[READ_USAGE] = usage;
  return usage;
}

function readTokenUsage(answer: UpstreamResponse): TokenUsage | null {
  const text = answer.text;
  if (text === undefined || !MARKERS.some((m) => text.includes(m))) return null;
  let found = false;
  const total: TokenUsage = { input: 0, output: 0 };
  for (const frame of frames(answer, text)) {
    const usage = usageOfFrame(frame);
    if (!usage) continue;
    found = true;
    total.input = Math.max(total.input, usage.input ?? 0);
    total.output = Math.max(total.output, usage.output ?? 0);
  }
  return found ? total : null;
}

/** The model a request body names (`model`), '' when it names none (some vendors put it in the URL). */
export function requestModelOf(json: unknown): string {
  return isObject(json) && typeof json.model === 'string' ? json.model.slice(0, 255) : '';
}
