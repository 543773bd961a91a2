// Per-request controls: tests steer the mock through headers, or the same names as query
// parameters for clients (or provider target paths) that cannot set headers.
import type { IncomingHttpHeaders } from 'node:http';

export const CONTROL_HEADERS = {
  reply: 'x-mock-reply',
  replyJson: 'x-mock-reply-json',
  delayMs: 'x-mock-delay-ms',
  chunkDelayMs: 'x-mock-chunk-delay-ms',
  status: 'x-mock-status',
  close: 'x-mock-close',
  hang: 'x-mock-hang',
  stallAfterFrames: 'x-mock-stall-after-frames',
  toolArguments: 'x-mock-tool-arguments',
} as const;

export interface Controls {
  /** Exact answer text instead of the echo. */
  reply: string | undefined;
  /** Exact JSON body to answer (with `status` when given, else 200). */
  replyJson: { value: unknown } | undefined;
  delayMs: number;
  /** Pause between stream frames. */
  chunkDelayMs: number;
  status: number | undefined;
  close: boolean;
  hang: boolean;
  /** A stream stops after this many frames and keeps the connection open. */
  stallAfterFrames: number | undefined;
  /** The answer is one tool call (`mock_tool`) with these arguments (a JSON text), where the vendor has tool calls. */
  toolArguments: string | undefined;
}

/** A control value the mock cannot use; answered 400 so a broken test is obvious. */
export class ControlError extends Error {}

export function readControls(headers: IncomingHttpHeaders, query: Record<string, string>): Controls {
  const get = (name: string): string | undefined => {
    const h = headers[name];
    const value = Array.isArray(h) ? h[0] : h;
    if (value !== undefined) return decodeHeaderText(value);
    return query[name];
  };
  const replyJsonText = get(CONTROL_HEADERS.replyJson);
  let replyJson: Controls['replyJson'];
  if (replyJsonText !== undefined) {
    try {
      replyJson = { value: JSON.parse(replyJsonText) as unknown };
    } catch {
      throw new ControlError(`${CONTROL_HEADERS.replyJson} is not valid JSON`);
    }
  }
  const status = get(CONTROL_HEADERS.status);
  return {
    reply: get(CONTROL_HEADERS.reply),
    replyJson,
    delayMs: readInt(CONTROL_HEADERS.delayMs, get(CONTROL_HEADERS.delayMs), 0, 600_000) ?? 0,
    chunkDelayMs: readInt(CONTROL_HEADERS.chunkDelayMs, get(CONTROL_HEADERS.chunkDelayMs), 0, 60_000) ?? 0,
    status: readInt(CONTROL_HEADERS.status, status, 100, 599),
    close: isTrue(get(CONTROL_HEADERS.close)),
    hang: isTrue(get(CONTROL_HEADERS.hang)),
    stallAfterFrames: readInt(CONTROL_HEADERS.stallAfterFrames, get(CONTROL_HEADERS.stallAfterFrames), 0, 1_000_000),
    toolArguments: get(CONTROL_HEADERS.toolArguments),
  };
}

function readInt(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new ControlError(`${name} must be an integer ${min}-${max}`);
  return n;
}

function isTrue(value: string | undefined): boolean {
  return value !== undefined && ['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase());
}

/**
 * Node reads header values as latin1; a client that sent UTF-8 bytes (Cyrillic PII in a reply)
 * gets them back decoded. Values that are not valid UTF-8 stay as they are.
 */
export function decodeHeaderText(value: string): string {
  if (!/[\u0080-\u00ff]/.test(value) || /[^\u0000-\u00ff]/.test(value)) return value;
  const decoded = Buffer.from(value, 'latin1').toString('utf8');
  return decoded.includes('\ufffd') ? value : decoded;
}

/** Waits ms, or less when the signal aborts (close() must not wait for delayed answers). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
