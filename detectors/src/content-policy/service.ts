// The Content Policy Service (spec: port 8089, POST /api/v1/evaluate, liveness GET /health): a thin
// route around the in-process evaluator, so HTTP and in-process callers run the same code.
import { buildDetectorService, type DetectorServiceOptions, type Service } from '@palisade/core';
import { createContentPolicyEvaluator, type ContentPolicyEvaluator } from './evaluator.js';
import { CONTENT_POLICY_LIMITS } from './limits.js';
import type { EvaluateRequest } from './schemas.js';

export const CONTENT_POLICY_EVALUATE_PATH = '/api/v1/evaluate';
/** The spec's liveness path for this component; /health/live and /health/ready are answered too. */
export const CONTENT_POLICY_HEALTH_PATH = '/health';

export interface ContentPolicyServiceOptions extends DetectorServiceOptions {
  /** Default: a new createContentPolicyEvaluator(). Pass one to share its cache with in-process callers. */
  evaluator?: ContentPolicyEvaluator;
}

/**
 * POST /api/v1/evaluate → 200 with the EvaluateResponse; 400 VALIDATION_ERROR with `details` for a
 * missing text, an unknown scope or a malformed policy; 413 for a body over the documented limit.
 */
export function buildContentPolicyService(options: ContentPolicyServiceOptions = {}): Service {
  const evaluator = options.evaluator ?? createContentPolicyEvaluator();
  return buildDetectorService(
    {
      name: 'content-policy',
      path: CONTENT_POLICY_EVALUATE_PATH,
      livenessPaths: [CONTENT_POLICY_HEALTH_PATH],
      bodyLimit: CONTENT_POLICY_LIMITS.bodyLimitBytes,
      handle: (body, call) => evaluator.detect(body as EvaluateRequest, { traceId: call.traceId }),
    },
    options,
  );
}
