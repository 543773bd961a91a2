// The decision point's input (the profile and what each detector answered) and output (the decision,
// what the pipeline must do, the security events implied). The same schemas validate the HTTP service's
// body and the HTTP client's answer, so both transports carry exactly these shapes (README.md).
import { z } from 'zod';
import type { TraceContext } from '@palisade/core';
import {
  ContentSafetyCategory,
  ContentSafetyVerdict,
  Decision,
  EventType,
  PiiEntity,
  Profile,
  ResponseScanOutcome,
  Score,
  Severity,
} from '@palisade/core';
import { EvaluateResponseSchema } from '@palisade/detectors';

export const DECISION_DIRECTIONS = ['request', 'response'] as const;
export const DecisionDirection = z.enum(DECISION_DIRECTIONS);
export type DecisionDirection = z.infer<typeof DecisionDirection>;

const LatencyMs = z.number().min(0);

/** The TypeScript shape of a detector outcome (the schema below is built per result type). */
export type DetectorOutcome<R> =
  | { status: 'ok'; latency_ms: number; result: R }
  /** No answer within the profile's detector_timeout_ms. */
  | { status: 'timeout'; latency_ms: number }
  | { status: 'error'; latency_ms: number; error: string }
  /** A 503: content safety without a GPU (spec) — skipped silently. */
  | { status: 'unavailable'; latency_ms: number; error?: string | undefined }
  /** Not run: disabled by the profile, nothing to check, … */
  | { status: 'skipped'; reason: string };

export type DetectorStatus = DetectorOutcome<unknown>['status'];

/** The outcome schema of a detector whose answer is `result`. */
export function detectorOutcome<R extends z.ZodType>(result: R) {
  return z.discriminatedUnion('status', [
    z.object({ status: z.literal('ok'), latency_ms: LatencyMs, result }),
    z.object({ status: z.literal('timeout'), latency_ms: LatencyMs }),
    z.object({ status: z.literal('error'), latency_ms: LatencyMs, error: z.string() }),
    z.object({ status: z.literal('unavailable'), latency_ms: LatencyMs, error: z.string().optional() }),
    z.object({ status: z.literal('skipped'), reason: z.string() }),
  ]);
}

export const ThreatResult = z.object({
  threat_score: Score,
  threat_decision: z.enum(['safe', 'unsafe']),
});
export type ThreatResult = z.infer<typeof ThreatResult>;

/** A PII finding: core's event entity plus the detector's score and the trust mark of a trust_pii policy. */
export const DecisionPiiEntity = PiiEntity.extend({
  score: Score,
  trusted: z.boolean().optional(),
});
export type DecisionPiiEntity = z.infer<typeof DecisionPiiEntity>;

export const PiiResult = z.object({ entities: z.array(DecisionPiiEntity) });
export type PiiResult = z.infer<typeof PiiResult>;

/** Per category: Safe 0.0, Controversial 0.5, Unsafe 0.95 from the guard model (spec), or a finer score. */
export const ContentSafetyCategoryResult = z.object({
  category: ContentSafetyCategory,
  verdict: ContentSafetyVerdict,
  score: Score,
});
export type ContentSafetyCategoryResult = z.infer<typeof ContentSafetyCategoryResult>;

export const ContentSafetyResult = z.object({
  verdict: ContentSafetyVerdict,
  categories: z.array(ContentSafetyCategoryResult),
});
export type ContentSafetyResult = z.infer<typeof ContentSafetyResult>;

/**
 * The content policy service's evaluate answer. Only blocked, action, matches and trusted_spans are
 * needed; fired_policies (which policy did what) is used when present.
 */
export const ContentPolicyResult = EvaluateResponseSchema.partial({
  fired_policies: true,
  detected_language: true,
  language_candidates: true,
  matches_truncated: true,
});
export type ContentPolicyResult = z.infer<typeof ContentPolicyResult>;

export const ThreatOutcome = detectorOutcome(ThreatResult);
export const PiiOutcome = detectorOutcome(PiiResult);
export const ContentSafetyOutcome = detectorOutcome(ContentSafetyResult);
export const ContentPolicyOutcome = detectorOutcome(ContentPolicyResult);

/** A detector missing from the input was not run: the same as `skipped`. */
export const DecisionInput = z.object({
  profile: Profile,
  direction: DecisionDirection,
  threat: ThreatOutcome.optional(),
  pii: PiiOutcome.optional(),
  content_safety: ContentSafetyOutcome.optional(),
  content_policy: ContentPolicyOutcome.optional(),
});
export type DecisionInput = z.infer<typeof DecisionInput>;
/** The detectors of a decision input, by their key. */
export type DecisionDetector = 'threat' | 'pii' | 'content_safety' | 'content_policy';

export const RequestDecision = z.enum(['ALLOW', 'BLOCK', 'SANITIZE']);
export type RequestDecision = z.infer<typeof RequestDecision>;

export const BLOCK_CODES = ['POLICY_VIOLATION', 'CUSTOM_POLICY_BLOCK', 'RESPONSE_BLOCKED'] as const;
export const BlockCode = z.enum(BLOCK_CODES);
export type BlockCode = z.infer<typeof BlockCode>;

/** PII in an error body: where and what type, with the mask, never the value itself. */
export const BlockDetailsEntity = PiiEntity.pick({ type: true, start: true, end: true, masked: true });
export type BlockDetailsEntity = z.infer<typeof BlockDetailsEntity>;

/** The spec's `details` of POLICY_VIOLATION. */
export const BlockDetails = z.object({
  jailbreak_score: Score.nullable(),
  pii_entities: z.array(BlockDetailsEntity),
});
export type BlockDetails = z.infer<typeof BlockDetails>;

/** How to refuse: the catalogue code, the HTTP status (403; responses: block_status_code). */
export const DecisionBlock = z.object({
  code: BlockCode,
  status: z.number().int().min(400).max(599),
  details: BlockDetails.optional(),
});
export type DecisionBlock = z.infer<typeof DecisionBlock>;

export const SANITIZE_MODES = ['mask', 'redact', 'pseudonymize'] as const;
export const SanitizeMode = z.enum(SANITIZE_MODES);
export type SanitizeMode = z.infer<typeof SanitizeMode>;

/** The PII to rewrite before forwarding: mask = the entity's `masked`, redact = removed. */
export const DecisionSanitize = z.object({
  mode: SanitizeMode,
  entities: z.array(DecisionPiiEntity),
});
export type DecisionSanitize = z.infer<typeof DecisionSanitize>;

/**
 * A security event the decision implies: the decision's part of core's SecurityEvent draft. The
 * pipeline adds trace, tenant, provider, prompt and latency, then filterEvents() and createSecurityEvents().
 */
export const DecisionEvent = z.object({
  event_type: EventType,
  severity: Severity,
  action: z.string(),
  decision: Decision.nullable(),
  reasons: z.array(z.string()),
  jailbreak_score: Score.nullable(),
  pii_entities: z.array(DecisionPiiEntity),
  categories: z.array(z.string()),
  policy_ids: z.array(z.string()),
});
export type DecisionEvent = z.infer<typeof DecisionEvent>;

const resultShape = {
  /** profile.monitor_only: a BLOCK/SANITIZE (REDACT) was not carried out. */
  monitor: z.boolean(),
  /** Why, for people: one line per finding, in evaluation order. */
  reasons: z.array(z.string()),
  /** Set when the pipeline must refuse (after monitor mode). */
  block: DecisionBlock.nullable(),
  /** Set when the pipeline must rewrite PII before passing the text on (after monitor mode). */
  sanitize: DecisionSanitize.nullable(),
  jailbreak_score: Score.nullable(),
  /** Every entity the PII detector found, `trusted` set from the detector and trust_pii spans. */
  pii_entities: z.array(DecisionPiiEntity),
  /** Content-safety categories that fired. */
  categories: z.array(ContentSafetyCategory),
  /** Content policies that fired (any action). */
  policy_ids: z.array(z.string()),
  /** Before suppression: apply filterEvents(events, profile) before recording. */
  events: z.array(DecisionEvent),
};

export const RequestDecisionResult = z.object({
  direction: z.literal('request'),
  decision: RequestDecision,
  /** MONITOR_ONLY replaces BLOCK and SANITIZE in monitor mode. */
  effective: Decision,
  ...resultShape,
});
export type RequestDecisionResult = z.infer<typeof RequestDecisionResult>;

export const ResponseDecisionResult = z.object({
  direction: z.literal('response'),
  decision: ResponseScanOutcome,
  /** PASS replaces BLOCK and REDACT in monitor mode: the answer goes to the client unchanged. */
  effective: ResponseScanOutcome,
  ...resultShape,
});
export type ResponseDecisionResult = z.infer<typeof ResponseDecisionResult>;

export const DecisionResult = z.discriminatedUnion('direction', [RequestDecisionResult, ResponseDecisionResult]);
export type DecisionResult = z.infer<typeof DecisionResult>;

/** The result type for an input whose direction is known statically (DecisionResult otherwise). */
export type DecisionResultFor<I extends { direction: DecisionDirection }> = I['direction'] extends 'request'
  ? RequestDecisionResult
  : I['direction'] extends 'response'
    ? ResponseDecisionResult
    : DecisionResult;

/** What the caller of a decision point passes besides the input. */
export interface DecisionCallOptions {
  signal?: AbortSignal | undefined;
  /** Forwarded as X-Trace-ID over HTTP, for correlated logs. */
  traceId?: string | undefined;
  /** With traces on: forwarded over HTTP as W3C traceparent. */
  traceContext?: TraceContext | undefined;
}

/** The decision point, in-process or over HTTP: one interface. */
export interface DecisionPoint {
  decide<I extends DecisionInput>(input: I, options?: DecisionCallOptions): Promise<DecisionResultFor<I>>;
  close(): Promise<void>;
}
