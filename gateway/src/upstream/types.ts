import type { Cache, StreamsClock, UpstreamAuth } from '@palisade/core';
import type { HeaderInput, HeaderMap } from './headers.js';
import type { StreamFormat } from './stream-parser.js';

/** The few logger methods the upstream client uses; a pino logger fits. */
export interface UpstreamLogger {
  debug(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export interface UpstreamClientOptions {
  /** Where OAuth access tokens are cached (shared by replicas when it is Redis). */
  cache: Cache;
  /** GATEWAY_LLM_INSECURE_SKIP_VERIFY: accept any TLS certificate from https upstreams. Default false. */
  insecureSkipVerify?: boolean;
  /** Time source for token expiry (default: the system clock). Timeouts always use real timers. */
  clock?: StreamsClock;
  logger?: UpstreamLogger;
  /** Most sockets per upstream origin (default 256); requests beyond it queue (inside their timeout). */
  connections?: number;
  /** Idle keep-alive sockets are closed after this long (default 10 s; a server's shorter Keep-Alive hint wins). */
  keepAliveTimeoutMs?: number;
  /** TCP+TLS connect limit (default 10 s); a request's own timeoutMs still bounds it. */
  connectTimeoutMs?: number;
  /** Largest upstream answer buffered, after decompression (default 64 MiB); more → LLM_REQUEST_FAILED. */
  maxResponseBytes?: number;
  /** Limit of one OAuth token request (default 10 s). */
  tokenTimeoutMs?: number;
  /** After a stream's end marker, how long to wait for the body to end before closing the socket (default 200 ms). */
  streamEndGraceMs?: number;
}

export interface UpstreamRequest {
  /** Full upstream URL (target_base_url + target_path, or the fallback backend). */
  url: string;
  /** Default POST. */
  method?: string;
  /** Headers the gateway wants forwarded; hop-by-hop ones and Authorization are dropped (headers.ts). */
  headers?: HeaderInput;
  /** Further header names (lower-case) not to forward, e.g. the gateway's own routing headers. */
  stripHeaders?: readonly string[];
  /** Request body; when non-empty and no content-type is given, `application/json` is sent. */
  body?: Buffer | string;
  /** The provider's request_timeout_ms, read when the request started: bounds headers AND body. */
  timeoutMs: number;
  /** The provider's upstream_auth; undefined = passthrough. */
  auth: UpstreamAuth | undefined;
  /** The client's Authorization value, sent upstream only for passthrough (default: `headers.authorization`). */
  clientAuthorization?: string;
  /** Aborts the exchange (the client went away); the request then fails with LLM_REQUEST_FAILED. */
  signal?: AbortSignal;
  /**
   * The cheaper form of `signal` for the hot path: called once with a function that aborts the
   * exchange, so the caller can hook it to an event it already has (the client socket closing)
   * without a second AbortController per request.
   */
  abortWith?: (abort: (reason: Error) => void) => void;
  /**
   * Called when a 2xx uncompressed stream (SSE, NDJSON) starts: a returned function receives each
   * body chunk as it arrives (the body is still collected for usage accounting). undefined = no tap.
   */
  onStreamStart?: (head: StreamHead) => ((chunk: Buffer) => void) | undefined;
  /**
   * The request asked for an NDJSON stream: a 2xx answer labelled plain `application/json` is read
   * as one, since gRPC-gateway servers (vendor_j's) label their NDJSON streams so. Never SSE: a
   * JSON-labelled answer to an SSE request is JSON (Gemini's array of chunks).
   */
  expectedStream?: 'ndjson';
}

/** The head of an upstream stream, as the stream tap sees it. */
export interface StreamHead {
  status: number;
  headers: HeaderMap;
  contentType: string;
  format: StreamFormat;
}

export interface UpstreamResponse {
  /** The upstream's status; 4xx/5xx are returned, not thrown. */
  status: number;
  /** Response headers without the hop-by-hop ones and content-length (headers.ts). */
  headers: HeaderMap;
  /** The whole answer (a stream: every frame up to the end marker), decompressed when it was compressed. */
  body: Buffer;
  /** The content-type header ('' when absent). */
  contentType: string;
  /** The answer was a stream (text/event-stream, or NDJSON) read to its end and buffered. */
  isEventStream: boolean;
  /** Which stream framing, when isEventStream. */
  streamFormat?: StreamFormat;
  /** Stream only: the end marker ([DONE], message_stop, done:true) was seen (false: the stream just ended). */
  streamComplete?: boolean;
  /** The body decoded as UTF-8, when the content type is textual (JSON, text/*, NDJSON, or none). */
  text?: string;
  /** The answer text reassembled from the stream deltas (also for a JSON array of gemini chunks), for the response scanner. */
  assembled?: string;
  /** The tool-call arguments reassembled from a stream (one text per call), when it carried any. */
  assembledToolArguments?: string[];
  /** The tool calls' names read from a stream (one per call), when it carried any. */
  assembledToolNames?: string[];
  /** From the start of send() to the last body byte, token fetch included. */
  durationMs: number;
  /** 2 when an OAuth token was refetched after a 401 and the request sent again. */
  attempts: number;
}

export interface UpstreamClient {
  send(request: UpstreamRequest): Promise<UpstreamResponse>;
  /** Waits for running requests, then closes every socket; later sends fail with LLM_REQUEST_FAILED. */
  close(): Promise<void>;
}
