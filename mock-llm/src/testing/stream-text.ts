// Client side of the streams, for tests: parses an SSE / NDJSON / JSON-array body back into
// the answer text, and says whether the vendor's end marker was seen.
import { createParser } from 'eventsource-parser';
import { asArray, asObject, asString } from '../text.js';

export interface SseMessage {
  event: string | undefined;
  data: string;
}

/** Parses an SSE body into its events, with the SSE parser the gateway builds on. */
export function parseSse(body: string): SseMessage[] {
  const out: SseMessage[] = [];
  const parser = createParser({ onEvent: (message) => out.push({ event: message.event, data: message.data }) });
  // A blank line ends an unterminated last event.
  parser.feed(`${body}\n\n`);
  return out;
}

export type StreamFormat = 'vendor_a' | 'vendor_b' | 'vendor_d' | 'vendor_g';

export interface CollectedStream {
  text: string;
  /** The end marker arrived: [DONE], message_stop, finishReason, done:true. */
  done: boolean;
  /** How many frames carried text. */
  pieces: number;
}

/**
 * Reassembles the answer of a streamed body. vendor_a covers vendor_c/h/i too (chat deltas and
 * legacy completion text); vendor_d takes SSE (alt=sse) or the JSON-array form.
 */
export function collectStreamText(vendor: StreamFormat, body: string): CollectedStream {
  const acc: CollectedStream = { text: '', done: false, pieces: 0 };
  const add = (piece: string): void => {
    if (piece.length === 0) return;
    acc.text += piece;
    acc.pieces += 1;
  };
  if (vendor === 'vendor_g') {
    for (const line of body.split('\n')) {
      if (line.trim() === '') continue;
      const obj = asObject(JSON.parse(line));
      add(asString(asObject(obj.message).content) || asString(obj.response));
      if (obj.done === true) acc.done = true;
    }
    return acc;
  }
  const payloads: unknown[] =
    vendor === 'vendor_d' && body.trimStart().startsWith('[')
      ? asArray(JSON.parse(body))
      : parseSse(body).flatMap((m) => {
          if (m.data === '[DONE]') {
            acc.done = true;
            return [];
          }
          return m.data === '' ? [] : [JSON.parse(m.data) as unknown];
        });
  for (const payload of payloads) {
    const obj = asObject(payload);
    if (vendor === 'vendor_a') {
      const choice = asObject(asArray(obj.choices)[0]);
      add(asString(asObject(choice.delta).content) || asString(choice.text));
    } else if (vendor === 'vendor_b') {
      if (obj.type === 'content_block_delta') add(asString(asObject(obj.delta).text));
      if (obj.type === 'message_stop') acc.done = true;
    } else {
      const candidate = asObject(asArray(obj.candidates)[0]);
      for (const part of asArray(asObject(candidate.content).parts)) add(asString(asObject(part).text));
      if (typeof candidate.finishReason === 'string') acc.done = true;
    }
  }
  return acc;
}
