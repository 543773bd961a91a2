// Steps 3-4 for the request: every detector the profile turns on, in parallel, each under
// detector_timeout_ms (run-detector.ts): the threat model on the normalized (or translated) prompt,
// PII, the profile's content policies and content safety. While a translation call is out only the
// threat model waits for it: the others read the normalized text, which is known before. A detector
// that is off is "skipped"; a size refusal is rethrown (a 413, never a detector error that would pass).
import type { Profile, TraceContext, Tracer } from '@palisade/core';
import type { ContentPolicyResult, ContentSafetyResult, DetectorOutcome, PiiResult, ThreatResult } from '../decision/index.js';
import type { LocalNormalization } from '../normalizer/index.js';
import type { InspectionDetectors } from './detectors.js';
import { clipForGuard } from './guard-text.js';
import { isSizeRefusal } from './inspection-limits.js';
import type { profilePolicies } from './profile-policies.js';
import type { SkipText } from './proof-of-inspection.js';
import { runDetector, withDetectorDeadline, type DetectorDeadline } from './run-detector.js';

/** A detector not run, with one of the fixed texts its proof of inspection records as an id. */
export const skipped = (reason: SkipText): DetectorOutcome<never> => ({ status: 'skipped', reason });

export interface RequestFindings {
  threat: DetectorOutcome<ThreatResult>;
  pii: DetectorOutcome<PiiResult>;
  contentPolicy: DetectorOutcome<ContentPolicyResult>;
  contentSafety: DetectorOutcome<ContentSafetyResult>;
}

export async function detectRequest(
  detectors: InspectionDetectors,
  request: { profile: Profile; traceId: string; tenantId: string; snapshot: { revision: string }; traceContext?: TraceContext | undefined },
  normalized: LocalNormalization,
  /** The threat model's text: a promise while the translation is out (it checks the size limit too). */
  forThreat: string | Promise<string>,
  policies: ReturnType<typeof profilePolicies>,
  tracer: Tracer | undefined,
): Promise<RequestFindings> {
  const { profile } = request;
  const timeoutMs = profile.detector_timeout_ms;
  // Each detector's options are written out whole: on Node 20 an object spread followed by more
  // properties ({ ...call, signal }) costs about 0.6 µs, ten times a literal, and these run per call.

  const safety = profile.content_safety;
  // Under the stage's deadline; started once a translation is in, under a whole timeout of its own from then.
  const threatOf = (prompt: string, deadline: DetectorDeadline) =>
    runDetector(
      (signal, traceContext) =>
        detectors.threat!.detect(
          {
            trace_context: { trace_id: request.traceId, span_id: 'threat' },
            tenant_id: request.tenantId,
            canonical: { user_prompt: prompt, language: normalized.language ?? 'auto' },
          },
          { traceId: request.traceId, signal, traceContext },
        ),
      deadline,
      { rethrow: isSizeRefusal, tracer, parent: request.traceContext, detector: 'threat' },
    );
  const [threat, pii, contentPolicy, contentSafety] = await withDetectorDeadline(timeoutMs, (deadline) =>
    Promise.all([
      !profile.threat_detection.enabled
        ? skipped('threat detection is off in the profile')
        : detectors.threat
          ? typeof forThreat === 'string'
            ? threatOf(forThreat, deadline)
            : forThreat.then((prompt) => withDetectorDeadline(timeoutMs, (own) => threatOf(prompt, own)))
          : ({ status: 'error', latency_ms: 0, error: 'no threat detector is configured' } as const),
      !profile.pii.enabled
        ? skipped('PII detection is off in the profile')
        : runDetector(
            (signal, traceContext) => detectors.pii.detect({ text: normalized.normalized, language: normalized.language, types: profile.pii.types, direction: 'input' }, { traceId: request.traceId, signal, traceContext }),
            deadline,
            { rethrow: isSizeRefusal, tracer, parent: request.traceContext, detector: 'pii' },
          ),
      policies.length === 0
        ? skipped('no active content policy in the profile')
        : runDetector(
            (signal, traceContext) =>
              detectors.contentPolicy.detect(
                { text: normalized.normalized, scope: 'input', language: normalized.language, revision: request.snapshot.revision, policies },
                { traceId: request.traceId, signal, traceContext },
              ),
            deadline,
            { rethrow: isSizeRefusal, tracer, parent: request.traceContext, detector: 'content_policy' },
          ),
      !safety.enabled
        ? skipped('content safety is off in the profile')
        : normalized.normalized.trim() === ''
          ? skipped('no prompt text to check')
          : runDetector(
              (signal, traceContext) =>
                detectors.contentSafety.detect(
                  { text: clipForGuard(normalized.normalized), blocked_categories: safety.blocked_categories, role: 'prompt' },
                  { traceId: request.traceId, signal, traceContext },
                ),
              deadline,
              { rethrow: isSizeRefusal, tracer, parent: request.traceContext, detector: 'content_safety' },
            ),
    ]),
  );

  return { threat, pii, contentPolicy, contentSafety };
}
