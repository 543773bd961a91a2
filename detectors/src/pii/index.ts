// Public API of the PII detector.
export { createPiiDetector, type PiiDetector, type PiiDetectorOptions } from './detector.js';
export { buildPiiService, PII_BODY_LIMIT, PII_DETECT_PATH, PII_DETECTOR_PORT, type PiiServiceOptions } from './service.js';
export {
  parsePiiDetectRequest,
  PII_MAX_TEXT_BYTES,
  PiiDetectRequestSchema,
  PiiDetectResponseSchema,
  PiiDetectedEntitySchema,
  PiiTrustMarkSchema,
  type ParsedPiiDetectRequest,
  type PiiDetectRequest,
  type PiiDetectResponse,
} from './schema.js';
export {
  DEFAULT_PII_MIN_SCORE,
  detectPii,
  hasUntrustedPii,
  piiTypesFor,
  type PiiDetectedEntity,
  type PiiDetectOptions,
  type PiiDirection,
} from './detect.js';
export { applyPiiAction, maskPiiValue, PII_ACTION_MODES, PII_PLACEHOLDERS, type PiiActionMode, type PiiSpan } from './masks.js';
export { createPiiTrustMatcher, type PiiTrustMark } from './trusted.js';
export { PII_RULES, piiRuleFor } from './rules.js';
export type { PiiCandidate, PiiRule, PiiScanInput } from './rule.js';
// The eval and the bench (npm run eval:pii, the speed figures), for the bench tooling.
export { generatePiiCorpus, type PiiEvalSample } from './eval/corpus.js';
export { belowGoal as piiTypesBelowGoal, evaluatePii, formatEvalTable as formatPiiEvalTable, PII_EVAL_GOAL, type PiiEvalReport } from './eval/evaluate.js';
export { formatPiiSpeedReport, measurePiiSpeed, PII_SPEED_TARGETS, piiSpeedMeetsTargets, type PiiSpeedReport } from './speed.js';
export { createPiiWorkerDetector, PII_INLINE_MAX_CHARS, type PiiWorkerDetector, type PiiWorkerDetectorOptions } from './worker-pool.js';
