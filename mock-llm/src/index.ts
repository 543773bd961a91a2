// Public API of the mock LLM upstream (used by tests, the quickstart and the benchmark).
export { createMockLlm } from './server.js';
export type { HttpAnswer, JsonObject, LlmRoute, MockLlm, MockLlmOptions, PlainRoute, RecordedRequest, Rejection, RouteContext, StreamRender, StreamSpec, VendorId, VendorRoute } from './types.js';
export { CONTROL_HEADERS, type Controls } from './controls.js';
export { DEFAULT_OAUTH_CLIENT, DEFAULT_SCOPE, type IssuedToken, type OAuthClient, type OAuthOptions, type OAuthStore } from './oauth.js';
export { defaultRoutes } from './vendors/index.js';
