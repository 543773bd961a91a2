// The response checks over one window of a streamed answer: output PII and the profile's response
// content policies, decided by the decision point exactly as a buffered answer is (response-scanner).
import type { Profile } from '@palisade/core';
import type { GatewaySnapshot } from '../config/snapshot.js';
import { decideFailSafe, type DecisionInput, type ResponseDecisionResult } from '../decision/index.js';
import { skipped } from '../pipeline/detect.js';
import type { InspectionDetectors } from '../pipeline/detectors.js';
import { profilePolicies } from '../pipeline/profile-policies.js';
import { runDetector, withDetectorDeadline } from '../pipeline/run-detector.js';
import type { InspectionOutcomes } from '../pipeline/proof-of-inspection.js';
import type { Pseudonyms } from '../pipeline/pseudonyms.js';
import { maskedSpans, type MaskSpan } from './holdback.js';

export interface WindowVerdict {
  effective: ResponseDecisionResult['effective'];
  /** REDACT: the values to rewrite, relative to the window. */
  spans: MaskSpan[];
  /** Absent when only placeholders were restored (no response checks ran). */
  result?: ResponseDecisionResult | undefined;
  /** The checks' outcomes, for the events' proof of inspection. */
  outcomes?: InspectionOutcomes | undefined;
}

export interface StreamCheckContext {
  profile: Profile;
  snapshot: Pick<GatewaySnapshot, 'revision' | 'contentPolicy'>;
  systemPrompt: string;
  traceId: string;
}

export type WindowCheck = (text: string) => Promise<WindowVerdict>;

/** Sorted spans of two lists, a span overlapping one kept before it dropped (the first list wins ties). */
function mergeSpans(first: readonly MaskSpan[], second: readonly MaskSpan[]): MaskSpan[] {
  const all = [...first, ...second].sort((a, b) => a.start - b.start);
  const kept: MaskSpan[] = [];
  for (const span of all) if (kept.length === 0 || span.start >= kept[kept.length - 1]!.end) kept.push(span);
  return kept;
}

/**
 * The checks of a window plus the restoration of pseudonymised values: a placeholder in the answer
 * is a span whose replacement is the request's original value (the checks read the placeholders).
 */
export function withRestoration(check: WindowCheck | undefined, pseudonyms: Pseudonyms): WindowCheck {
  return async function restoring(text) {
    const verdict: WindowVerdict = check ? await check(text) : { effective: 'PASS', spans: [] };
    if (verdict.effective === 'BLOCK') return verdict;
    return { ...verdict, spans: mergeSpans(verdict.spans, pseudonyms.restorations(text)) };
  };
}

export function createWindowCheck(detectors: Pick<InspectionDetectors, 'pii' | 'contentPolicy' | 'decisionPoint'>, context: StreamCheckContext): WindowCheck {
  const { profile, snapshot } = context;
  const settings = profile.response_scanning;
  const policies = profilePolicies(profile, snapshot, 'response');
  const timeoutMs = profile.detector_timeout_ms;
  const call = { traceId: context.traceId };
  const types = settings.pii_types.length ? { types: settings.pii_types } : {};
  return async function check(text) {
    const [pii, contentPolicy] = await withDetectorDeadline(timeoutMs, (deadline) =>
      Promise.all([
        settings.pii_mode === 'disabled'
          ? skipped('response PII scanning is disabled')
          : runDetector((signal) => detectors.pii.detect({ text, direction: 'output', system_prompt: context.systemPrompt, ...types }, { traceId: context.traceId, signal }), deadline),
        policies.length === 0
          ? skipped('no active response content policy in the profile')
          : runDetector((signal) => detectors.contentPolicy.detect({ text, scope: 'output', revision: snapshot.revision, policies }, { traceId: context.traceId, signal }), deadline),
      ]),
    );
    let result: ResponseDecisionResult;
    const outcomes = { pii, content_policy: contentPolicy, content_safety: skipped('content safety needs the whole answer (buffered)') };
    try {
      const input = { profile, direction: 'response' as const, ...outcomes } as unknown as DecisionInput & { direction: 'response' };
      result = await detectors.decisionPoint.decide(input, call);
    } catch (error) {
      result = decideFailSafe(profile, `decision point unavailable: ${error instanceof Error ? error.message : String(error)}`, 'response') as unknown as ResponseDecisionResult;
    }
    const findings = result.effective === 'REDACT' && result.sanitize ? result.sanitize.entities.filter((e) => !e.trusted && e.end > e.start) : [];
    const spans = maskedSpans(text, [...findings].sort((a, b) => a.start - b.start));
    return { effective: result.effective, spans, result, outcomes: outcomes as InspectionOutcomes };
  };
}
