// Stream framing: SSE events and NDJSON lines, written one frame at a time so clients see a
// real chunked stream (and a chunk delay can spread it over time).
import { Readable } from 'node:stream';
import { sleep } from './controls.js';

export const SSE_CONTENT_TYPE = 'text/event-stream; charset=utf-8';
export const NDJSON_CONTENT_TYPE = 'application/x-ndjson';
export const SSE_DONE = 'data: [DONE]\n\n';

/** One SSE event; `eol` lets a vendor use CRLF as its real server does. */
export function sseEvent(data: unknown, event?: string, eol = '\n'): string {
  const head = event === undefined ? '' : `event: ${event}${eol}`;
  return `${head}data: ${JSON.stringify(data)}${eol}${eol}`;
}

export function ndjsonLine(data: unknown): string {
  return `${JSON.stringify(data)}\n`;
}

/** How a written stream ended: every frame sent, or the client went away first. */
export interface StreamOutcome {
  framesSent: number;
  frames: number;
  ended: 'complete' | 'closed';
}

/**
 * A Readable that yields the frames, pausing chunkDelayMs between them; stops on abort. With
 * stallAfterFrames it stops writing after that many frames and keeps the connection open (an
 * upstream that hangs mid-stream). `onEnd` learns how the stream ended.
 */
export function frameStream(
  frames: string[],
  chunkDelayMs: number,
  signal: AbortSignal,
  options: { stallAfterFrames?: number | undefined; onEnd?: (outcome: StreamOutcome) => void } = {},
): Readable {
  let sent = 0;
  async function* generate(): AsyncGenerator<string> {
    let complete = false;
    try {
      for (let i = 0; i < frames.length; i += 1) {
        if (signal.aborted) return;
        if (options.stallAfterFrames !== undefined && i >= options.stallAfterFrames) {
          await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
          return;
        }
        if (i > 0) await sleep(chunkDelayMs, signal);
        yield frames[i] as string;
        sent += 1;
      }
      complete = true;
    } finally {
      options.onEnd?.({ framesSent: sent, frames: frames.length, ended: complete ? 'complete' : 'closed' });
    }
  }
  return Readable.from(generate(), { objectMode: false });
}
