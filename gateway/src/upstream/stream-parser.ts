/**
 * Reading streamed LLM answers frame by frame: server-sent events (on `eventsource-parser`) and
 * NDJSON lines. Every stream reader of the gateway (the assembler, the stream guard, usage counting)
 * goes through `createFrameReader` / `parseFrames`, so they all split a stream the same way.
 *
 * A buffered answer's readers let the gateway know when a stream is complete and give the response
 * scanner the reassembled answer text; the stream guard (gateway/src/streaming) relays one as it comes.
 */
import { createParser, type EventSourceParser } from 'eventsource-parser';
import type { StreamFormat } from '@palisade/core';

export type { StreamFormat } from '@palisade/core';

/** One dispatched server-sent event. `data` joins multi-line data with `\n` (WHATWG rules). */
export interface SseEvent {
  event: string | undefined;
  data: string;
  /** The last event id seen on the stream (it carries over to later events, as in WHATWG). */
  id: string | undefined;
}

const NDJSON_TYPES = new Set(['application/x-ndjson', 'application/ndjson', 'application/jsonl', 'application/x-jsonlines']);

const JSON_TYPE = 'application/json';

/**
 * The stream format a response content type announces, or undefined for a plain body. `json`: how a
 * plain `application/json` body is read (an NDJSON stream the request asked for, as gRPC-gateway
 * servers label theirs), by default as no stream.
 */
export function streamFormatOf(contentType: string | undefined, json?: 'ndjson'): StreamFormat | undefined {
  if (contentType === undefined) return undefined;
  // Most answers are JSON: decided without splitting or lower-casing (`application/jsonl` is not JSON).
  const after = contentType.charCodeAt(JSON_TYPE.length);
  if (contentType.startsWith(JSON_TYPE) && (Number.isNaN(after) || after === 59 /* ; */ || after === 32)) return json;
  const mime = contentType.split(';', 1)[0]?.trim().toLowerCase() ?? '';
  if (mime === JSON_TYPE) return json;
  if (mime === 'text/event-stream') return 'sse';
  return NDJSON_TYPES.has(mime) ? 'ndjson' : undefined;
}

/**
 * Incremental SSE parser (WHATWG event-stream rules, by `eventsource-parser`): lines end in LF, CRLF
 * or CR, a CRLF split across two chunks included; `:` lines are comments; a blank line dispatches an
 * event that has data. The library forgets an event's `id` once it is dispatched; this keeps the last
 * one for the events after it, as the WHATWG rules do.
 */
export class SseParser {
  private readonly parser: EventSourceParser;
  private completed: SseEvent[] = [];
  private lastId: string | undefined;

  constructor() {
    this.parser = createParser({
      onEvent: (message) => {
        if (message.id !== undefined) this.lastId = message.id;
        this.completed.push({ event: message.event, data: message.data, id: this.lastId });
      },
    });
  }

  /** Feeds decoded text; returns the events completed by it. */
  push(text: string): SseEvent[] {
    if (text === '') return [];
    this.parser.feed(text);
    return this.take();
  }

  /** End of input: a last line without its terminator and an undispatched event still count. */
  end(): SseEvent[] {
    // A blank line ends the last line (a lone CR held back for a following LF included) and the event.
    this.parser.feed('\n\n');
    this.parser.reset();
    return this.take();
  }

  private take(): SseEvent[] {
    const out = this.completed;
    if (out.length > 0) this.completed = [];
    return out;
  }
}

/** Parses a whole SSE body at once. */
export function parseSse(body: string): SseEvent[] {
  const parser = new SseParser();
  return [...parser.push(body), ...parser.end()];
}

/**
 * Incremental NDJSON line reader: lines end in LF (a CR before it is left to the JSON parser, which
 * takes it as whitespace). Hand-written: splitting at one character needs no library, and the SSE
 * parsers (the only candidates) would give `data:`-less lines no meaning.
 */
export class NdjsonLineReader {
  private rest = '';

  /** Feeds decoded text; returns the lines completed by it (without their LF). */
  push(text: string): string[] {
    const lines: string[] = [];
    let start = 0;
    let nl = text.indexOf('\n');
    if (nl >= 0) {
      lines.push(this.rest + text.slice(0, nl));
      this.rest = '';
      start = nl + 1;
      nl = text.indexOf('\n', start);
      while (nl >= 0) {
        lines.push(text.slice(start, nl));
        start = nl + 1;
        nl = text.indexOf('\n', start);
      }
    }
    this.rest += text.slice(start);
    return lines;
  }

  /** End of input: the last line, when it had no LF. */
  end(): string[] {
    const last = this.rest;
    this.rest = '';
    return last === '' ? [] : [last];
  }
}

/**
 * The frames of a streamed body, from its raw bytes as they arrive: a UTF-8 sequence split across
 * chunks is decoded whole, then SSE events or NDJSON lines (a line is a frame's `data`; blank lines
 * are skipped).
 */
export interface FrameReader {
  /** Raw body bytes; returns the frames they complete. */
  push(chunk: Uint8Array): SseEvent[];
  /** End of the body: a last frame without its terminator still counts. */
  end(): SseEvent[];
}

export function createFrameReader(format: StreamFormat): FrameReader {
  const decoder = new TextDecoder('utf-8');
  if (format === 'sse') {
    const parser = new SseParser();
    return {
      push: (chunk) => parser.push(decoder.decode(chunk, { stream: true })),
      end: () => [...parser.push(decoder.decode()), ...parser.end()],
    };
  }
  const lines = new NdjsonLineReader();
  return {
    push: (chunk) => lineFrames(lines.push(decoder.decode(chunk, { stream: true }))),
    end: () => lineFrames([...lines.push(decoder.decode()), ...lines.end()]),
  };
}

/** NDJSON lines as frames, blank lines skipped. */
const lineFrames = (lines: readonly string[]): SseEvent[] => lines.filter((line) => line.trim() !== '').map((data) => ({ event: undefined, data, id: undefined }));

/** The frames of a whole streamed body. */
export function parseFrames(format: StreamFormat, body: string): SseEvent[] {
  if (format === 'sse') return parseSse(body);
  const reader = new NdjsonLineReader();
  return lineFrames([...reader.push(body), ...reader.end()]);
}
