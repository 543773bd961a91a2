/**
 * Reads one upstream answer through undici's dispatch API straight into a list of chunks: no
 * Readable body stream, no async iterator, no AbortController (the controller undici hands us aborts).
 * A stream (SSE or NDJSON) is fed to the assembler as it arrives, so its end marker is seen even when
 * the server keeps the connection open; a compressed answer is decoded once complete.
 */
import zlib from 'node:zlib';
import type { Dispatcher } from 'undici';
import { forwardableResponseHeaders, headerValue, type HeaderMap } from './headers.js';
import { assembleJsonChunks, createStreamAssembler, jsonChunksToolCalls, type StreamAssembler } from './stream-assembler.js';
import { streamFormatOf, type StreamFormat } from './stream-parser.js';
import type { UpstreamRequest, UpstreamResponse } from './types.js';

export type Exchange = Omit<UpstreamResponse, 'durationMs' | 'attempts'>;

export class ResponseTooLargeError extends Error {
  readonly code = 'PALISADE_RESPONSE_TOO_LARGE';
  constructor(limit: number) {
    super(`the answer is larger than ${limit} bytes`);
    this.name = 'ResponseTooLargeError';
  }
}

/** Why the collector itself ended a stream whose end marker went by. */
class StreamEndedError extends Error {}

const TEXTUAL = /^(text\/|application\/(json|x-ndjson|ndjson|jsonl|x-jsonlines|xml|x-www-form-urlencoded|javascript)\b)|[+/]json\b|\+xml\b/i;

function isTextual(contentType: string): boolean {
  return contentType.trim() === '' || TEXTUAL.test(contentType.trim());
}

/** Whole-body decoders; lenient about a truncated end, as browsers are. */
function decode(encoding: string, body: Buffer, maxBytes: number): Buffer | undefined {
  const options = { maxOutputLength: maxBytes };
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.gunzipSync(body, { ...options, finishFlush: zlib.constants.Z_SYNC_FLUSH });
    case 'deflate':
      return zlib.inflateSync(body, { ...options, finishFlush: zlib.constants.Z_SYNC_FLUSH });
    case 'br':
      return zlib.brotliDecompressSync(body, { ...options, finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
    default:
      return undefined;
  }
}

export interface CollectorOptions {
  method: string;
  maxResponseBytes: number;
  streamEndGraceMs: number;
  onStreamStart?: UpstreamRequest['onStreamStart'];
  expectedStream?: UpstreamRequest['expectedStream'];
}

type Controller = Parameters<NonNullable<Dispatcher.DispatchHandler['onRequestStart']>>[0];

export class AnswerCollector implements Dispatcher.DispatchHandler {
  readonly done: Promise<Exchange>;
  private resolve!: (exchange: Exchange) => void;
  private reject!: (error: unknown) => void;
  private settled = false;
  private controller: Controller | undefined;
  private abortReason: Error | undefined;
  private status = 0;
  private headers: Record<string, string | string[]> = {};
  private contentType = '';
  private encoding = '';
  private assembler: StreamAssembler | undefined;
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private grace: NodeJS.Timeout | undefined;
  private tap: ((chunk: Buffer) => void) | undefined;

  constructor(private readonly options: CollectorOptions) {
    this.done = new Promise<Exchange>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  /** Ends the exchange now (deadline, caller): the promise rejects with `reason`. */
  abort(reason: Error): void {
    this.abortReason = reason;
    this.controller?.abort(reason);
    this.fail(reason);
  }

  onRequestStart(controller: Controller): void {
    this.controller = controller;
    if (this.abortReason) controller.abort(this.abortReason);
  }

  onResponseStart(_controller: Controller, statusCode: number, headers: Record<string, string | string[]>): void {
    if (statusCode < 200) return; // 1xx informational answers come before the real one
    this.status = statusCode;
    this.headers = headers;
    this.contentType = headerValue(headers, 'content-type') ?? '';
    this.encoding = (headerValue(headers, 'content-encoding') ?? '').trim().toLowerCase();
    const plain = this.encoding === '' || this.encoding === 'identity';
    const format = plain ? this.streamFormat() : undefined;
    if (format) this.assembler = createStreamAssembler(format);
    if (format && statusCode < 300 && this.options.onStreamStart) {
      this.tap = this.options.onStreamStart({ status: statusCode, headers: forwardableResponseHeaders(headers, { decoded: false }), contentType: this.contentType, format });
    }
  }

  /** The answer's stream format by its content type; a 2xx plain JSON answer in the format asked for. */
  private streamFormat(): StreamFormat | undefined {
    const success = this.status >= 200 && this.status < 300;
    return streamFormatOf(this.contentType, success ? this.options.expectedStream : undefined);
  }

  onResponseData(controller: Controller, chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > this.options.maxResponseBytes) {
      const error = new ResponseTooLargeError(this.options.maxResponseBytes);
      controller.abort(error);
      this.fail(error);
      return;
    }
    this.chunks.push(chunk);
    this.tap?.(chunk);
    const assembler = this.assembler;
    if (!assembler) return;
    assembler.push(chunk);
    // The end marker went by: the answer is complete. Give the body a moment to end so the socket
    // can be reused; a server that keeps the stream open is cut off (the socket is closed).
    if (assembler.done && this.grace === undefined) {
      this.grace = setTimeout(() => {
        controller.abort(new StreamEndedError('stream end marker seen'));
        this.succeed();
      }, this.options.streamEndGraceMs);
    }
  }

  onResponseEnd(): void {
    this.succeed();
  }

  onResponseError(_controller: Controller, error: Error): void {
    if (this.assembler?.done && !(error instanceof ResponseTooLargeError)) this.succeed();
    else this.fail(error);
  }

  private fail(error: unknown): void {
    clearTimeout(this.grace);
    if (this.settled) return;
    this.settled = true;
    this.reject(error);
  }

  private succeed(): void {
    clearTimeout(this.grace);
    if (this.settled) return;
    this.settled = true;
    try {
      this.resolve(this.result());
    } catch (error) {
      this.reject(error);
    }
  }

  private result(): Exchange {
    const raw = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    const bodyless = this.options.method === 'HEAD' || this.status === 204 || this.status === 304;
    const decoded = bodyless ? undefined : decode(this.encoding, raw, this.options.maxResponseBytes);
    const body = decoded ?? raw;
    // An encoding we cannot decode (zstd…) is passed through as bytes, unparsed.
    const readable = this.encoding === '' || this.encoding === 'identity' || decoded !== undefined;
    let assembler = this.assembler;
    if (decoded !== undefined) {
      const format = this.streamFormat();
      if (format) {
        assembler = createStreamAssembler(format);
        assembler.push(decoded);
      }
    }
    if (assembler && !assembler.done) assembler.finish();

    const headers: HeaderMap = forwardableResponseHeaders(this.headers, { decoded: decoded !== undefined });
    const result: Exchange = { status: this.status, headers, body, contentType: this.contentType, isEventStream: assembler !== undefined };
    if (readable && isTextual(this.contentType)) result.text = body.toString('utf8');
    if (assembler) {
      result.streamFormat = assembler.format;
      result.streamComplete = assembler.done;
      result.assembled = assembler.text;
      if (assembler.toolArguments.length > 0) result.assembledToolArguments = assembler.toolArguments;
      if (assembler.toolNames.length > 0) result.assembledToolNames = assembler.toolNames;
    } else if (result.text !== undefined && /json/i.test(this.contentType) && result.text.trimStart().startsWith('[')) {
      // vendor_d streamGenerateContent without alt=sse: the stream is one JSON array of chunks.
      try {
        const chunks = JSON.parse(result.text) as unknown;
        const assembled = assembleJsonChunks(chunks);
        if (assembled !== undefined) result.assembled = assembled;
        const tools = jsonChunksToolCalls(chunks);
        if (tools.arguments.length > 0) result.assembledToolArguments = tools.arguments;
        if (tools.names.length > 0) result.assembledToolNames = tools.names;
      } catch {
        // Not JSON after all: no assembled text.
      }
    }
    return result;
  }
}
