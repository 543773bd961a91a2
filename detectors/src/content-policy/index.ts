// The content policy detector (spec: Content Policy Service, port 8089): its contract, the in-process
// evaluator, the HTTP service, and the create-time pattern check for the admin API.
export { CONTENT_POLICY_LIMITS, CONTENT_POLICY_PORT, DEFAULT_COMPILED_POLICY_CACHE_SIZE } from './limits.js';
export {
  CONTENT_POLICY_FIRE_REASONS,
  ContentPolicyMatchSchema,
  ContentPolicyTrustedSpanSchema,
  EVALUATE_SCOPES,
  EvaluateEnvelopeSchema,
  EvaluatePolicyListSchema,
  EvaluatePolicyObjectSchema,
  EvaluatePolicySchema,
  EvaluateRequestSchema,
  EvaluateResponseSchema,
  EvaluateScopeSchema,
  FiredContentPolicySchema,
  type ContentPolicyMatch,
  type ContentPolicyTrustedSpan,
  type EvaluatePolicy,
  type EvaluatePolicyInput,
  type EvaluateRequest,
  type EvaluateResponse,
  type EvaluateScope,
  type FiredContentPolicy,
} from './schemas.js';
export { compilePolicySet, type CompiledPolicySet, type CompilePolicySetOptions } from './compile.js';
export { emptyEvaluateResponse, evaluatePolicySet, type EvaluatePolicySetDependencies, type EvaluatePolicySetInput } from './evaluate.js';
export {
  createContentPolicyEvaluator,
  type ContentPolicyCacheStats,
  type ContentPolicyEvaluator,
  type ContentPolicyEvaluatorOptions,
} from './evaluator.js';
export {
  CONTENT_LANGUAGE_DEFAULTS,
  createContentLanguageDetector,
  languageSampleOf,
  type ContentLanguageDetection,
  type ContentLanguageDetector,
  type ContentLanguageDetectorOptions,
} from './language.js';
export { checkContentPolicyPatterns, type ContentPolicyPatternsInput } from './validate.js';
export {
  CONTENT_POLICY_EVALUATE_PATH,
  CONTENT_POLICY_HEALTH_PATH,
  buildContentPolicyService,
  type ContentPolicyServiceOptions,
} from './service.js';
export {
  contentPolicySpeedFixture,
  formatContentPolicySpeed,
  measureContentPolicySpeed,
  type ContentPolicyLatency,
  type ContentPolicySpeedOptions,
  type ContentPolicySpeedReport,
} from './speed.js';
