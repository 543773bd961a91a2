// The decision point (spec: "Gateway pipeline" steps 4-5 and the response scan of step 7): the
// profile and the detectors' outcomes → ALLOW / SANITIZE / BLOCK (responses: PASS / REDACT / BLOCK).
// Pure and synchronous: no I/O, so the in-process point and the HTTP service (8086) are this function.
import type { Profile } from '@palisade/core';
import { BLOCK, addEvent, createFindings, finish, raise } from './findings.js';
import { usable } from './outcome.js';
import {
  applyContentPolicy,
  applyContentSafety,
  applyPii,
  applyThreat,
  contentSafetyEnabled,
  piiMode,
  threatEnabled,
} from './rules.js';
import type { DecisionDirection, DecisionInput, DecisionResult, DecisionResultFor } from './types.js';

export function decide<I extends DecisionInput>(input: I): DecisionResultFor<I> {
  const { profile, direction } = input;
  const f = createFindings(profile, direction);
  // response_scanning.enabled is the master switch of every response check.
  if (direction === 'request' || profile.response_scanning.enabled) {
    // Outcomes first, in a fixed order, so that failures are reported whatever the results say.
    const mode = piiMode(profile, direction);
    const threat = threatEnabled(profile, direction) ? usable(f, 'threat', input.threat) : null;
    const pii = mode ? usable(f, 'pii', input.pii) : null;
    const safety = contentSafetyEnabled(profile, direction) ? usable(f, 'content_safety', input.content_safety) : null;
    const policy = usable(f, 'content_policy', input.content_policy);
    if (threat) applyThreat(f, threat);
    // trust_pii spans are known before PII is judged; they only mark entities, never lift a block.
    if (pii && mode) applyPii(f, mode, pii, policy?.trusted_spans ?? []);
    if (safety) applyContentSafety(f, safety);
    if (policy) applyContentPolicy(f, policy);
  }
  // finish() answers in the input's direction.
  return finish(f) as DecisionResultFor<I>;
}

/**
 * The decision when the decision point itself cannot be reached (the caller's HTTP call failed):
 * fail_safe.mode fail-open → ALLOW (PASS), fail-closed → BLOCK, both with FAIL_SAFE_TRIGGERED. Monitor
 * mode applies as to any decision.
 */
export function decideFailSafe(profile: Profile, reason: string, direction: DecisionDirection = 'request'): DecisionResult {
  const f = createFindings(profile, direction);
  const mode = profile.fail_safe.mode;
  const line = `decision point unavailable (${reason}); fail_safe.mode ${mode}`;
  f.reasons.push(line);
  if (mode === 'fail-closed') raise(f, BLOCK, true);
  addEvent(f, 'FAIL_SAFE_TRIGGERED', mode === 'fail-closed' ? 'BLOCK' : 'PASS', [line]);
  return finish(f);
}
