// Shared types of the mock LLM upstream. A vendor is described as data (VendorRoute); the
// server (server.ts) turns those descriptions into fastify routes and applies the controls.
import type { IncomingHttpHeaders } from 'node:http';
import type { OAuthOptions, OAuthStore } from './oauth.js';
import type { StreamOutcome } from './sse.js';

/** Vendor tokens of the spec plus the mock's own routes (health, static images). */
export type VendorId =
  | 'vendor_a'
  | 'vendor_b'
  | 'vendor_c'
  | 'vendor_d'
  | 'vendor_e'
  | 'vendor_f'
  | 'vendor_g'
  | 'vendor_h'
  | 'vendor_i'
  | 'vendor_j'
  | 'image_vendor_a_compatible'
  | 'image_vendor_k'
  | 'image_vendor_l'
  | 'serving_vendor_m'
  | 'custom_simple'
  | 'mock';

export type JsonObject = Record<string, unknown>;

/** One request exactly as the mock received it. */
export interface RecordedRequest {
  method: string;
  /** Path with the query string, as sent on the request line. */
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed body: JSON value, form fields object, raw string when unparsable, undefined when empty. */
  body: unknown;
  /** The body bytes as text ('' when none). */
  rawBody: string;
  /** Name of the vendor route that matched (e.g. 'vendor_a.chat'); undefined for 404s. */
  route: string | undefined;
  receivedAt: number;
  /** A streamed answer: frames written and whether the client stayed to the end. */
  stream?: StreamOutcome;
}

/** What a vendor route gets to read the request and build its answer. */
export interface RouteContext {
  /** The JSON body as an object ({} when the body is not an object). */
  body: JsonObject;
  /** Path params; for `<model>:<action>` paths also `model` and `action`. */
  params: Record<string, string>;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** Model name resolved by the route (or body.model, or 'mock-model'). */
  model: string;
  /** Fresh unique suffix for ids of this answer. */
  id: string;
  /** Current time in ms (from the injected clock). */
  now: number;
  /** Base URL the client used to reach the mock (from the Host header), for image URLs. */
  origin: string;
  oauth: OAuthStore;
  /** Per-instance state bag, cleared by reset() (e.g. stored predictions). */
  state: Map<string, unknown>;
  /** Accepted vendor_c api-key value (undefined = any non-empty key). */
  vendorCApiKey: string | undefined;
  /** The answer is a tool call with these arguments (x-mock-tool-arguments), for vendors with tool calls. */
  toolArguments?: string | undefined;
}

export interface HttpAnswer {
  status?: number;
  headers?: Record<string, string>;
  body: unknown;
}

/** A failed precondition (auth, required field, api-version): status + message. */
export interface Rejection {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

export interface StreamRender {
  contentType: string;
  /** Serialized frames written in order (SSE events, NDJSON lines, JSON array pieces). */
  frames: string[];
}

export interface StreamSpec {
  when(ctx: RouteContext): boolean;
  render(text: string, ctx: RouteContext): StreamRender;
}

interface RouteBase {
  vendor: VendorId;
  /** Stable name recorded on requests, e.g. 'vendor_b.messages'. */
  name: string;
  method: 'GET' | 'POST';
  paths: readonly string[];
  /**
   * For Google-style `/models/<model>:<action>` paths (declared with a `:modelAction` param):
   * the action this route answers. fastify cannot route on the suffix, so the server dispatches.
   */
  action?: string;
  /** Vendor-style JSON error body. */
  error(status: number, message: string): unknown;
}

/** A generation endpoint: reads a prompt, answers the echo (or the forced reply) in its format. */
export interface LlmRoute extends RouteBase {
  kind: 'llm';
  /** Top-level body fields whose absence is a 400 (the field that carries the prompt). */
  required?: readonly string[];
  /** Preconditions checked before answering (auth, api-version); first failure wins. */
  check?(ctx: RouteContext): Rejection | undefined;
  model?(ctx: RouteContext): string | undefined;
  prompt(ctx: RouteContext): string;
  /** Answer text when no x-mock-reply is given; undefined = the echo (images answer a URL). */
  defaultText?(prompt: string, ctx: RouteContext): string | undefined;
  reply(text: string, ctx: RouteContext): unknown;
  stream?: StreamSpec;
}

/** Any other endpoint (health, OAuth token, lookups): computes its answer itself. */
export interface PlainRoute extends RouteBase {
  kind: 'plain';
  handle(ctx: RouteContext): HttpAnswer;
}

export type VendorRoute = LlmRoute | PlainRoute;

export interface MockLlmOptions {
  /** fastify logger; off by default so test output stays clean. */
  logger?: boolean;
  /** Idle keep-alive timeout of server sockets (default 65 s, longer than clients' own). */
  keepAliveTimeoutMs?: number;
  /** Largest accepted body (default 16 MiB). */
  bodyLimit?: number;
  /** Clock in ms (default Date.now); drives `created` fields and token expiry. */
  now?: () => number;
  /** Builds the default answer from the prompt (default `Echo: <prompt>`). */
  echo?: (prompt: string) => string;
  /** vendor_i OAuth: accepted clients and token lifetime. */
  oauth?: OAuthOptions;
  /** The api-key vendor_c accepts; by default any non-empty key. */
  vendorCApiKey?: string;
  /**
   * Most recent requests kept in `requests` (default 100 000, trimmed in batches); 0 turns
   * recording off (long benchmarks).
   */
  recordLimit?: number;
  /** Replace or extend the route table (default: every vendor, see vendors/index.ts). */
  routes?: VendorRoute[];
}

export interface MockLlm {
  /** Starts listening; resolves the base URL, e.g. http://127.0.0.1:40123. */
  listen(port?: number, host?: string): Promise<string>;
  /** Stops the server, ending delayed, hanging and streaming requests at once. */
  close(): Promise<void>;
  /** Every request received, in order, up to recordLimit (the same array for the life of the instance). */
  readonly requests: RecordedRequest[];
  /** Clears recorded requests, the OAuth issuance counter and stored state (issued tokens stay valid). */
  reset(): void;
  /** Base URL once listening. */
  readonly url: string | undefined;
  /** vendor_i token store: issuedCount lets tests check the gateway caches tokens. */
  readonly oauth: OAuthStore;
}
