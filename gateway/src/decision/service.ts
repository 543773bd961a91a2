// The decision point as a service (spec: "Decision point (PDP)", port 8086): a thin route around
// decide(), so HTTP and in-process callers get the same answers.
import { buildDetectorService, type DetectorServiceOptions, type Service, COMPONENT_PORTS } from '@palisade/core';
import { decide } from './decide.js';
import { DecisionInput } from './types.js';

export const DECISION_POINT_PORT = COMPONENT_PORTS['decision-point'];
export const DECISION_PATH = '/api/v1/decide';
/** Matches and PII values of a large prompt travel in the body; the content policy service takes 8 MiB texts. */
export const DECISION_BODY_LIMIT_BYTES = 8 * 1024 * 1024;

export type DecisionServiceOptions = DetectorServiceOptions;

/** POST /api/v1/decide: DecisionInput → 200 DecisionResult; 400 VALIDATION_ERROR with `details` otherwise. */
export function buildDecisionService(options: DecisionServiceOptions = {}): Service {
  return buildDetectorService(
    {
      name: 'decision-point',
      path: DECISION_PATH,
      bodyLimit: DECISION_BODY_LIMIT_BYTES,
      // A ZodError thrown here becomes createService's 400 VALIDATION_ERROR with field details.
      handle: async (body) => decide(DecisionInput.parse(body)),
    },
    options,
  );
}
