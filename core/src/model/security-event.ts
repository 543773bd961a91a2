// Security events: the types of the spec's Events table, their default severities (DECISIONS.md),
// which of them a profile may switch off, and the stored event record.
import { z } from 'zod';
import { IsoDateTime, ListQuery, TenantId, Uuid, isPlainObject } from './common.js';
import { Score } from './content-safety.js';
import { PiiType } from './pii.js';

export const EVENT_TYPES = [
  'REQUEST_BLOCKED',
  'REQUEST_SANITIZED',
  'JAILBREAK_DETECTED',
  'PII_DETECTED',
  'POLICY_VIOLATION',
  'CUSTOM_POLICY_BLOCK',
  'CUSTOM_POLICY_FLAG',
  'MONITOR_ALERT',
  'RESPONSE_MONITOR_ALERT',
  'RESPONSE_REDACTED',
  'RESPONSE_BLOCKED',
  'FAIL_SAFE_TRIGGERED',
  'DETECTOR_ERROR',
  'PROVIDER_ERROR',
  'RATE_LIMIT',
  'SERVICE_UNAVAILABLE',
  'REQUEST_ERROR',
  'THREAT_DETECTED',
  // Ours: the record of an ALLOW decision, written only with event_logging.log_allow_decisions.
  'REQUEST_ALLOWED',
] as const;
export const EventType = z.enum(EVENT_TYPES);
export type EventType = z.infer<typeof EventType>;

/** Always logged; a profile cannot disable them (the spec's six "no" rows). */
export const NON_SUPPRESSIBLE_EVENT_TYPES = [
  'REQUEST_BLOCKED',
  'REQUEST_SANITIZED',
  'JAILBREAK_DETECTED',
  'PII_DETECTED',
  'POLICY_VIOLATION',
  'CUSTOM_POLICY_BLOCK',
] as const satisfies readonly EventType[];

/**
 * May be listed in event_logging.disabled_event_types: the spec's "yes" rows only. Types the spec
 * leaves open ("-") stay logged: they record blocks, flags and response findings.
 */
export const SUPPRESSIBLE_EVENT_TYPES = [
  'MONITOR_ALERT',
  'FAIL_SAFE_TRIGGERED',
  'DETECTOR_ERROR',
  'PROVIDER_ERROR',
  'RATE_LIMIT',
  'SERVICE_UNAVAILABLE',
  'REQUEST_ERROR',
] as const satisfies readonly EventType[];
export const SuppressibleEventType = z.enum(SUPPRESSIBLE_EVENT_TYPES, {
  error: (iss) =>
    `${String(iss.input)} is not a suppressible event type; allowed: ${SUPPRESSIBLE_EVENT_TYPES.join(', ')}`,
});
export type SuppressibleEventType = z.infer<typeof SuppressibleEventType>;

export function isSuppressible(type: string): type is SuppressibleEventType {
  return (SUPPRESSIBLE_EVENT_TYPES as readonly string[]).includes(type);
}

export const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'] as const;
export const Severity = z.enum(SEVERITIES);
export type Severity = z.infer<typeof Severity>;

/** DECISIONS.md; THREAT_DETECTED (not given there) is HIGH like the other detections short of jailbreak. */
export const DEFAULT_SEVERITY_BY_EVENT_TYPE: Readonly<Record<EventType, Severity>> = {
  JAILBREAK_DETECTED: 'CRITICAL',
  REQUEST_BLOCKED: 'HIGH',
  CUSTOM_POLICY_BLOCK: 'HIGH',
  POLICY_VIOLATION: 'HIGH',
  RESPONSE_BLOCKED: 'HIGH',
  RESPONSE_REDACTED: 'HIGH',
  FAIL_SAFE_TRIGGERED: 'HIGH',
  SERVICE_UNAVAILABLE: 'HIGH',
  THREAT_DETECTED: 'HIGH',
  PII_DETECTED: 'MEDIUM',
  REQUEST_SANITIZED: 'MEDIUM',
  MONITOR_ALERT: 'MEDIUM',
  RESPONSE_MONITOR_ALERT: 'MEDIUM',
  DETECTOR_ERROR: 'MEDIUM',
  PROVIDER_ERROR: 'MEDIUM',
  CUSTOM_POLICY_FLAG: 'LOW',
  RATE_LIMIT: 'LOW',
  REQUEST_ERROR: 'LOW',
  REQUEST_ALLOWED: 'INFO',
};

/** CEF severity 0-10 of each event severity (DECISIONS.md). */
export const CEF_SEVERITY: Readonly<Record<Severity, number>> = { CRITICAL: 10, HIGH: 8, MEDIUM: 5, LOW: 3, INFO: 1 };

/** Gateway decisions; MONITOR_ONLY replaces BLOCK/SANITIZE in monitor mode. */
export const DECISIONS = ['ALLOW', 'BLOCK', 'SANITIZE', 'MONITOR_ONLY'] as const;
export const Decision = z.enum(DECISIONS);
export type Decision = z.infer<typeof Decision>;

/** Outcomes of response scanning. */
export const RESPONSE_SCAN_OUTCOMES = ['PASS', 'REDACT', 'BLOCK'] as const;
export const ResponseScanOutcome = z.enum(RESPONSE_SCAN_OUTCOMES);
export type ResponseScanOutcome = z.infer<typeof ResponseScanOutcome>;

/** A PII finding; detail retention later replaces `value` by `masked`. */
export const PiiEntity = z.object({
  type: PiiType,
  start: z.number().int().min(0),
  end: z.number().int().min(0),
  value: z.string(),
  masked: z.string(),
});
export type PiiEntity = z.infer<typeof PiiEntity>;

/** The checks an inspection runs, in the order of a proof of inspection. */
export const INSPECTION_DETECTORS = ['threat', 'pii', 'content_policy', 'content_safety'] as const;
export const InspectionDetector = z.enum(INSPECTION_DETECTORS);
export const INSPECTION_CHECK_STATUSES = ['ok', 'timeout', 'error', 'unavailable', 'skipped'] as const;

/**
 * Why a check was skipped, as a fixed id (an id of the code's, never text from a call or from a
 * detector's answer): `off_in_profile` the profile turns the detector off on this side;
 * `no_active_policy` no ACTIVE content policy of the profile applies to this side; `no_text` nothing to
 * check (an empty prompt or answer); `needs_whole_answer` the check runs on a whole answer only and the
 * answer was streamed and scanned on the fly; `other` a reason without an id of its own.
 */
export const INSPECTION_SKIP_REASONS = ['off_in_profile', 'no_active_policy', 'no_text', 'needs_whole_answer', 'other'] as const;
export const InspectionSkipReason = z.enum(INSPECTION_SKIP_REASONS);
export type InspectionSkipReason = z.infer<typeof InspectionSkipReason>;

/** A content policy rule that fired: the policy and the index of the rule in its `rules`. */
export const FiredRule = z.object({ policy_id: z.string().max(64), rule_index: z.number().int().min(0) });
export type FiredRule = z.infer<typeof FiredRule>;

/**
 * One check of a decision's proof of inspection: which detector ran on which side, with what model,
 * score against what threshold, how long, and (content policies) which rules fired. Counts and ids
 * only: never a matched value or prompt text.
 */
export const InspectionCheck = z.object({
  detector: InspectionDetector,
  side: z.enum(['request', 'response']),
  status: z.enum(INSPECTION_CHECK_STATUSES),
  model_version: z.string().max(128).nullable().default(null),
  /** The detector's score (threat score, highest PII or content safety score); null when it gives none. */
  score: z.number().min(0).max(1).nullable().default(null),
  /** The profile's threshold the score was compared with; null when the check has none. */
  threshold: z.number().min(0).max(1).nullable().default(null),
  latency_ms: z.number().min(0).nullable().default(null),
  /** How many findings: PII entities, policy rule matches, unsafe categories. */
  findings: z.number().int().min(0).default(0),
  /** Content policies: the fired rules (at most 20). */
  fired_rules: z.array(FiredRule).max(20).default([]),
  /** Why a `skipped` check did not run; null for every other status (and in records older than it). */
  reason: InspectionSkipReason.nullable().default(null),
});
export type InspectionCheck = z.infer<typeof InspectionCheck>;

export const SecurityEvent = z.object({
  id: Uuid,
  /** From X-Trace-ID when the client sent one, so not necessarily a UUID. */
  trace_id: z.string().min(1).max(128),
  timestamp: IsoDateTime,
  event_type: EventType,
  severity: Severity,
  tenant_id: TenantId,
  source_ip: z.string().max(64).nullable().default(null),
  provider_id: Uuid.nullable().default(null),
  provider_name: z.string().max(255).nullable().default(null),
  profile_id: Uuid.nullable().default(null),
  model: z.string().max(255).nullable().default(null),
  /** What was done, e.g. BLOCK, MASK, REDACT, WOULD_BLOCK (monitor mode), FLAG. */
  action: z.string().max(64).nullable().default(null),
  decision: Decision.nullable().default(null),
  jailbreak_score: Score.nullable().default(null),
  pii_entities: z.array(PiiEntity).default([]),
  categories: z.array(z.string()).default([]),
  policy_ids: z.array(z.string()).default([]),
  reasons: z.array(z.string()).default([]),
  user_prompt: z.string().nullable().default(null),
  latency_ms: z.number().min(0).nullable().default(null),
  /** Proof of inspection: every check of the decision that raised this event (empty for operational events). */
  inspection: z.array(InspectionCheck).default([]),
});
export type SecurityEvent = z.infer<typeof SecurityEvent>;

/** What an emitter supplies; id, timestamp and severity are filled when absent. */
export type SecurityEventDraft = Omit<z.input<typeof SecurityEvent>, 'id' | 'timestamp' | 'severity'> &
  Partial<Pick<z.input<typeof SecurityEvent>, 'id' | 'timestamp' | 'severity'>>;

/** Builds a validated event: a fresh id, `now` as timestamp, the type's default severity. */
export function createSecurityEvent(draft: SecurityEventDraft, now: Date = new Date()): SecurityEvent {
  return SecurityEvent.parse({
    ...draft,
    id: draft.id ?? globalThis.crypto.randomUUID(),
    timestamp: draft.timestamp ?? now.toISOString(),
    severity: draft.severity ?? DEFAULT_SEVERITY_BY_EVENT_TYPE[draft.event_type],
  });
}

/** The fields every event of one request shares (its context). */
export type SecurityEventShared = Pick<SecurityEvent, 'trace_id' | 'tenant_id' | 'source_ip' | 'provider_id' | 'provider_name' | 'profile_id' | 'model' | 'user_prompt' | 'latency_ms'>;
/** The fields of one event of the request; severity is the type's default when absent. */
export type SecurityEventOwn = Pick<SecurityEvent, 'event_type' | 'action' | 'decision' | 'jailbreak_score' | 'pii_entities' | 'categories' | 'policy_ids' | 'reasons'> & {
  severity?: Severity | undefined;
};

/**
 * The events of one decision from typed fields: what the request's events share, what each adds, and
 * the decision's proof of inspection; a fresh id each, `now` as timestamp, the type's default severity.
 * Not validated again here: the gateway fills every field from typed values (the client's strings
 * clipped to the record's limits, scores clamped), and every reader of the stream (event writer,
 * exporters) validates each entry with SecurityEvent before storing or sending it. Validating here as
 * well was 4 % of the gateway's time under full inspection. Fields come in the model's order, so the
 * JSON is the same as createSecurityEvent's; each event gets its own copy of the list of checks.
 */
export function assembleSecurityEvents(
  shared: SecurityEventShared,
  parts: readonly SecurityEventOwn[],
  inspection: readonly InspectionCheck[],
  now: Date = new Date(),
): SecurityEvent[] {
  if (parts.length === 0) return [];
  const timestamp = now.toISOString();
  return parts.map((part) => ({
    id: globalThis.crypto.randomUUID(),
    trace_id: shared.trace_id,
    timestamp,
    event_type: part.event_type,
    severity: part.severity ?? DEFAULT_SEVERITY_BY_EVENT_TYPE[part.event_type],
    tenant_id: shared.tenant_id,
    source_ip: shared.source_ip,
    provider_id: shared.provider_id,
    provider_name: shared.provider_name,
    profile_id: shared.profile_id,
    model: shared.model,
    action: part.action,
    decision: part.decision,
    jailbreak_score: part.jailbreak_score,
    pii_entities: part.pii_entities,
    categories: part.categories,
    policy_ids: part.policy_ids,
    reasons: part.reasons,
    user_prompt: shared.user_prompt,
    latency_ms: shared.latency_ms,
    inspection: inspection.slice(),
  }));
}

/** GET /security-events query; enum filters compare case-insensitively. */
export const SecurityEventQuery = z.preprocess(
  (v) => {
    if (!isPlainObject(v)) return v;
    const out = { ...v };
    for (const key of ['event_type', 'severity', 'decision'] as const) {
      if (typeof out[key] === 'string') out[key] = (out[key] as string).toUpperCase();
    }
    return out;
  },
  ListQuery.extend({
    trace_id: z.string().min(1).max(128).optional(),
    event_type: EventType.optional(),
    severity: Severity.optional(),
    decision: Decision.optional(),
    tenant_id: TenantId.optional(),
    provider_id: Uuid.optional(),
    profile_id: Uuid.optional(),
    from: IsoDateTime.optional(),
    to: IsoDateTime.optional(),
  }),
);
export type SecurityEventQuery = z.infer<typeof SecurityEventQuery>;
