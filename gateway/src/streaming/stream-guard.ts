// One streamed answer on its way to the client: the upstream's bytes are parsed as SSE events or NDJSON
// lines (split UTF-8 sequences and lines across chunks included), each frame is queued with the answer
// text it carries (a cumulative stream's frame: the part beyond what its slot had),
// the text goes through a hold-back window per answer slot, and events leave in order once all their
// text is released: rewritten when a value in them was masked, untouched otherwise. A block ends the
// stream with the vendor's error event and end marker; none of the violating text has left. Tool-call
// arguments go through slots of their own, read as JSON text (pipeline/json-text.ts): their escapes
// decoded for the checks, a value rewritten only inside a string, its replacement escaped.
import type { StreamFormat } from '@palisade/core';
import { createFrameReader, type FrameReader, type SseEvent } from '../upstream/stream-parser.js';
import { extractDelta } from '../upstream/stream-rules.js';
import { encodeEvents, formatOf, isStreamEnd, textPlaces, type OutgoingEvent, type RepeatPlace, type StreamCodec, type TextPlace } from './codecs.js';
import { decodeJsonEscapes, JsonStrings, toRawSpans } from '../pipeline/json-text.js';
import { HoldbackText, type MaskSpan } from './holdback.js';
import type { TailNeed } from './holdback-size.js';
import type { WindowCheck, WindowVerdict } from './window-check.js';

/** Unreleased characters one slot may hold (a value being masked, a run without whitespace). */
export const DEFAULT_MAX_HELD = 64 * 1024;

/** Why a stream was cut: a verdict of the checks, or a failure of the guard's own rules. */
export type Refusal = { kind: 'verdict'; verdict: WindowVerdict } | { kind: 'unscannable'; reason: string };

export interface StreamGuardOptions {
  codec: StreamCodec;
  /** The checks of a window; absent = nothing to check (events pass as they come). */
  check?: WindowCheck | undefined;
  /** Findings this close to the end may still grow (they are held whole). */
  holdback: number;
  context: number;
  /** The characters at a window's end that may still start a value; absent = the whole hold-back. */
  tailNeed?: TailNeed | undefined;
  /** The most unreleased characters of a slot; more refuses the stream (each check reads them all). */
  maxHeld?: number | undefined;
  /** Writes stream bytes (SSE or NDJSON, the codec's format) to the client. */
  write(text: string): void;
  /** Ends the client's response. */
  end(): void;
  /** The stream was refused: record it, stop the upstream. Returns the refusal's message for the client. */
  onRefuse(refusal: Refusal): { message: string; code: string; type: string; traceId: string };
  /** The stream ended unrefused; `findings` when a window recorded something (monitor, mask). */
  onComplete?(texts: ReadonlyMap<string, string>, findings: boolean): void;
}

interface QueuedEvent {
  message: SseEvent;
  frame: Record<string, unknown> | undefined;
  /** `text` is the place's delta; `whole`: the text of a cumulative frame, which gets the slot's text as sent instead. */
  places: Array<TextPlace & { start: number; end: number; whole?: string | undefined }>;
  repeats: RepeatPlace[];
}

interface Slot {
  text: HoldbackText;
  /** The whole answer of the slot, for the end-of-stream events. */
  whole: string[];
  /** What the client got of the slot so far (for frames repeating the whole text). */
  sent: string;
  /** A cumulative stream: the whole text of the slot's last frame. */
  received: string;
  checkedTo: number;
  /** A slot of tool-call arguments: the string literals of its JSON text. */
  json?: JsonStrings | undefined;
  /** A slot of a tool call's name: its text comes whole in one frame, so each check is its last. */
  complete?: boolean | undefined;
}

export class StreamGuard {
  private readonly format: StreamFormat;
  private readonly reader: FrameReader;
  private readonly slots = new Map<string, Slot>();
  private readonly queue: QueuedEvent[] = [];
  private work: Promise<void> = Promise.resolve();
  private scheduled = false;
  private closed = false;
  private ended = false;
  private findings = false;
  private unscannable: string | undefined;
  /** Releases that found a value crossing into text already sent (0 unless the hold-back is too short). */
  leaks = 0;

  constructor(private readonly options: StreamGuardOptions) {
    this.format = formatOf(options.codec);
    this.reader = createFrameReader(this.format);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Upstream body bytes, as they arrive. */
  push(chunk: Uint8Array): void {
    if (this.closed || this.ended) return;
    for (const event of this.reader.push(chunk)) this.onEvent(event);
    this.schedule(false);
  }

  /** Resolves once the chunks pushed so far are checked and what they allow is released. */
  drained(): Promise<void> {
    return this.work;
  }

  /** The upstream body ended: everything left is checked and released. */
  finish(): Promise<void> {
    if (!this.closed && !this.ended) {
      // A last event without its blank line (a last line without its LF) still counts.
      for (const event of this.reader.end()) this.onEvent(event);
      this.ended = true;
    }
    this.work = this.work.then(() => this.advance(true));
    return this.work;
  }

  /** The upstream failed mid-stream (timeout, reset): the client gets the vendor's error event and end marker. */
  async fail(message: { message: string; code: string; type: string; traceId: string }): Promise<void> {
    await this.work;
    if (this.closed) return;
    this.closed = true;
    this.options.write(encodeEvents(this.format, this.options.codec.refusal(message)));
    this.options.end();
  }

  private onEvent(message: SseEvent): void {
    const codec = this.options.codec;
    const frame = parseFrame(message.data);
    // Every line of an NDJSON stream is a JSON object: another line would pass unread.
    if (!frame && this.format === 'ndjson') this.unscannable ??= 'a stream line is not a JSON object';
    const repeats = frame && codec.repeats ? codec.repeats(frame) : [];
    for (const repeat of repeats) {
      // A repeat must be the text the deltas carried: text that only a repeat carries is never scanned.
      const slot = this.slots.get(repeat.slot);
      const original = repeat.parent[repeat.key];
      if (original !== (slot ? slot.whole.join('') : '')) this.unscannable ??= 'a stream frame repeats text its deltas did not carry';
    }
    // An end frame is read too: a vendor_g done line may still carry text.
    const end = isStreamEnd(codec, message, frame);
    const places = frame ? textPlaces(codec, frame) : [];
    if (places.length === 0 && frame && (extractDelta(frame, this.format)?.some(([, text]) => text !== '') ?? false)) {
      // Text in a frame shape this codec does not read would pass uninspected: refused instead.
      this.unscannable ??= 'a stream frame carries text in a shape the scanner does not read';
    }
    const queued: QueuedEvent = { message, frame, places: [], repeats };
    for (const place of places) {
      const slot = this.slot(place.slot, place.encoding);
      let text = place.text;
      if (place.cumulative) {
        // Only the text beyond the slot's is new; a frame that rewrites text already read cannot be scanned so.
        const extending = place.text.startsWith(slot.received);
        if (!extending) this.unscannable ??= 'a cumulative stream frame does not extend the text before it';
        text = extending ? place.text.slice(slot.received.length) : '';
        slot.received = place.text;
      }
      const start = slot.text.length;
      slot.text.append(text);
      slot.json?.push(text);
      slot.whole.push(text);
      queued.places.push({ ...place, text, whole: place.cumulative ? place.text : undefined, start, end: start + text.length });
    }
    this.queue.push(queued);
    if (end) this.ended = true;
  }

  private slot(key: string, encoding: TextPlace['encoding']): Slot {
    let slot = this.slots.get(key);
    if (!slot) {
      const json = encoding === 'json_text' || encoding === 'object';
      slot = { text: new HoldbackText(this.options.holdback, this.options.context), whole: [], sent: '', received: '', checkedTo: -1, json: json ? new JsonStrings() : undefined, complete: encoding === 'name' };
      this.slots.set(key, slot);
    }
    return slot;
  }

  private schedule(final: boolean): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.work = this.work.then(() => {
      this.scheduled = false;
      return this.advance(final || this.ended);
    });
  }

  private async advance(final: boolean): Promise<void> {
    if (this.closed) return;
    if (this.unscannable) return this.refuse({ kind: 'unscannable', reason: this.unscannable });
    for (const slot of this.slots.values()) {
      if (slot.checkedTo === slot.text.length && !final) continue;
      slot.checkedTo = slot.text.length;
      let spans: MaskSpan[] = [];
      const window = slot.text.window();
      if (window.text.length > (this.options.maxHeld ?? DEFAULT_MAX_HELD) + this.options.context) {
        return this.refuse({ kind: 'unscannable', reason: 'the answer holds more unreleased text than the scanner keeps' });
      }
      const need = this.options.tailNeed ? this.options.tailNeed(window.text) : this.options.holdback;
      if (this.options.check) {
        const decoded = slot.json ? decodeJsonEscapes(window.text) : undefined;
        const verdict = await this.options.check(decoded ? decoded.text : window.text);
        if (this.closed) return;
        if (verdict.effective === 'BLOCK') return this.refuse({ kind: 'verdict', verdict });
        if (verdict.result && verdict.result.events.length > 0) this.findings = true;
        if (decoded && slot.json) {
          const mapped = toRawSpans(verdict.spans, decoded, window.start, slot.json, slot.text.releasedTo);
          if (!mapped) return this.refuse({ kind: 'unscannable', reason: 'a value in tool-call arguments is outside a JSON string and cannot be masked' });
          spans = mapped;
        } else {
          spans = verdict.spans.map((s) => ({ ...s, start: s.start + window.start, end: s.end + window.start }));
        }
      }
      if (!slot.text.apply(spans, final || slot.complete === true, need)) {
        this.leaks += 1;
        return this.refuse({ kind: 'unscannable', reason: 'a finding reached into text already sent' });
      }
    }
    this.release();
    if (final && this.ended && this.queue.length === 0) this.complete();
  }

  private release(): void {
    let out = '';
    while (this.queue.length > 0) {
      const head = this.queue[0]!;
      if (!head.places.every((p) => p.end <= this.slots.get(p.slot)!.text.releasedTo)) break;
      this.queue.shift();
      const rendered = this.render(head);
      if (!rendered) {
        if (out) this.options.write(out);
        return this.refuse({ kind: 'unscannable', reason: 'masked tool-call arguments are not valid JSON' });
      }
      out += encodeEvents(this.format, [rendered]);
    }
    if (out) this.options.write(out);
    for (const [key, slot] of this.slots) {
      const pending = this.queue.find((q) => q.places.some((p) => p.slot === key));
      const offset = pending?.places.find((p) => p.slot === key)?.start ?? slot.text.releasedTo;
      slot.text.forget(offset);
      slot.json?.forget(offset);
    }
  }

  /** The event as the client gets it; null when masked arguments of a whole-value place no longer parse. */
  private render(queued: QueuedEvent): OutgoingEvent | null {
    let changed = false;
    for (const place of queued.places) {
      const slot = this.slots.get(place.slot)!;
      const delta = slot.text.render(place.start, place.end);
      if (this.options.codec.repeats || place.whole !== undefined) slot.sent += delta;
      // A cumulative frame carries the slot's text as sent so far: a value masked before stays masked.
      const text = place.whole !== undefined ? slot.sent : delta;
      if (text !== (place.whole ?? place.text)) {
        if (place.encoding === 'object') {
          try {
            place.parent[place.key] = JSON.parse(text) as unknown;
          } catch {
            return null;
          }
        } else {
          place.parent[place.key] = text;
        }
        changed = true;
      }
    }
    for (const repeat of queued.repeats) {
      const sent = this.slots.get(repeat.slot)?.sent ?? '';
      if (repeat.parent[repeat.key] !== sent) {
        repeat.parent[repeat.key] = sent;
        changed = true;
      }
    }
    const data = changed ? JSON.stringify(queued.frame) : queued.message.data;
    return { event: queued.message.event, data };
  }

  private refuse(refusal: Refusal): void {
    this.closed = true;
    this.queue.length = 0;
    const message = this.options.onRefuse(refusal);
    this.options.write(encodeEvents(this.format, this.options.codec.refusal(message)));
    this.options.end();
  }

  private complete(): void {
    this.closed = true;
    this.options.end();
    const texts = new Map<string, string>();
    for (const [key, slot] of this.slots) texts.set(key, slot.json ? decodeJsonEscapes(slot.whole.join('')).text : slot.whole.join(''));
    this.options.onComplete?.(texts, this.findings);
  }
}

function parseFrame(data: string): Record<string, unknown> | undefined {
  const trimmed = data.trimStart();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    const value = JSON.parse(data) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
