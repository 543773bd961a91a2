// The gateway's upstream client: the hot path to LLM backends (see client.ts).
export { createUpstreamClient, UPSTREAM_DEFAULTS } from './client.js';
export type { UpstreamClient, UpstreamClientOptions, UpstreamLogger, UpstreamRequest, UpstreamResponse, StreamHead } from './types.js';
export {
  basicCredentials,
  createUpstreamAuth,
  DEFAULT_TOKEN_LIFETIME_MS,
  DEFAULT_TOKEN_TIMEOUT_MS,
  oauthCacheKey,
  TOKEN_EXPIRY_MARGIN_MS,
  TOKEN_EXPIRY_MARGIN_RATIO,
  tokenExpiresAt,
  tokenUsableUntil,
  type AppliedAuth,
  type OAuthClientCredentials,
  type UpstreamAuthenticator,
  type UpstreamAuthOptions,
} from './auth.js';
export {
  forwardableRequestHeaders,
  forwardableResponseHeaders,
  headerValue,
  HOP_BY_HOP_HEADERS,
  isHopByHopHeader,
  REQUEST_ONLY_STRIPPED_HEADERS,
  RESPONSE_ONLY_STRIPPED_HEADERS,
  type HeaderInput,
  type HeaderMap,
  type HeaderValue,
} from './headers.js';
export { describeFailure, FAILURE_DESCRIPTIONS, findErrorCode, isTimeoutError, TIMEOUT_CODES } from './network-errors.js';
export {
  assembleJsonChunks,
  assembleStream,
  createStreamAssembler,
  DELTA_RULES,
  END_MARKERS,
  extractDelta,
  parseFrames,
  parseSse,
  SseParser,
  streamFormatOf,
  valuesAt,
  type DeltaRule,
  type EndMarker,
  type JsonPath,
  type PathStep,
  type SseEvent,
  type StreamAssembler,
  type StreamFormat,
} from './sse.js';
