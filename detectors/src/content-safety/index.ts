// The content safety detector (spec: Content Safety, port 8088): its contract, the in-process analyzer
// over a Qwen3Guard-Gen-class model behind an OpenAI-compatible server, the HTTP service, and a guard
// server for tests and offline demos.
export { CONTENT_SAFETY_DEFAULT_MODEL, CONTENT_SAFETY_LIMITS, CONTENT_SAFETY_SERVICE_PORT } from './limits.js';
export {
  AnalyzeRequestSchema,
  CONTENT_SAFETY_ROLES,
  type AnalyzeRequest,
  type AnalyzeResponse,
  type ContentSafetyCategoryVerdict,
  type ContentSafetyDeviceInfo,
  type ContentSafetyRole,
  type ParsedAnalyzeRequest,
} from './schemas.js';
export { GuardOutputError, guardCategory, parseGuardOutput, stripThinking, type GuardOutput } from './guard-output.js';
export { createGuardClient, guardBasePath, type GuardClient, type GuardClientOptions, type GuardCompletion, type GuardMessage } from './guard-client.js';
export { createContentSafetyAnalyzer, guardMessages, toAnalyzeResponse, type ContentSafetyAnalyzer, type ContentSafetyAnalyzerOptions, type ContentSafetyLogger } from './analyzer.js';
export {
  CONTENT_SAFETY_ANALYZE_PATH,
  CONTENT_SAFETY_DEVICE_INFO_PATH,
  CONTENT_SAFETY_ENV,
  buildContentSafetyService,
  loadContentSafetyEnv,
  type ContentSafetyEnv,
  type ContentSafetyServiceOptions,
} from './service.js';
export * from './testing/index.js';
