// The decision point as a service (spec: "Decision point (PDP)", port 8086): a thin route around
// decide(), so HTTP and in-process callers get the same answers.
import { createService, type Service, type ServiceOptions } from '@palisade/core';
import { decide } from './decide.js';
import { DecisionInput } from './types.js';

export const DECISION_POINT_PORT = 8086;
export const DECISION_PATH = '/api/v1/decide';
/** Matches and PII values of a large prompt travel in the body; the content policy service takes 8 MiB texts. */
export const DECISION_BODY_LIMIT_BYTES = 8 * 1024 * 1024;

export interface DecisionServiceOptions {
  /** A pino logger to share (the CLI's). */
  logger?: ServiceOptions['logger'];
  logLevel?: string;
  /** When set, every route but health and metrics needs it in X-Internal-Token (DECISIONS.md). */
  internalToken?: string | undefined;
}

/** POST /api/v1/decide: DecisionInput → 200 DecisionResult; 400 VALIDATION_ERROR with `details` otherwise. */
export function buildDecisionService(options: DecisionServiceOptions = {}): Service {
  const service = createService({
    name: 'decision-point',
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.logLevel ? { logLevel: options.logLevel } : {}),
    internalToken: options.internalToken,
    bodyLimit: DECISION_BODY_LIMIT_BYTES,
  });
  // A ZodError thrown here becomes createService's 400 VALIDATION_ERROR with field details.
  service.app.post(DECISION_PATH, async (request) => decide(DecisionInput.parse(request.body)));
  return service;
}
