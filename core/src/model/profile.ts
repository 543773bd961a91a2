// Security profile: the checks applied to the traffic of one provider (DECISIONS.md record).
// Every nested block has defaults, so `{name, provider_id}` is a complete profile.
import { z } from 'zod';
import {
  LanguageCode,
  LifecycleStatus,
  Name,
  TenantId,
  Uuid,
  immutable,
  isPlainObject,
  recordMeta,
  updateShape,
  withInput,
} from './common.js';
import { ContentSafetyCategory, Score } from './content-safety.js';
import { PiiMode, PiiType, ResponsePiiMode, normalisePiiTypes } from './pii.js';
import { SuppressibleEventType } from './security-event.js';

/** The most prompt characters a profile can have inspected: the threat classifier's input limit. */
export const MAX_INSPECTED_CHARS = 1_000_000;

export const DETECTOR_ACTIONS = ['pass', 'block'] as const;
export const DetectorAction = z.enum(DETECTOR_ACTIONS);
export type DetectorAction = z.infer<typeof DetectorAction>;

/** fail-open: ALLOW when the decision point is unavailable; fail-closed: BLOCK. */
export const FAIL_SAFE_MODES = ['fail-open', 'fail-closed'] as const;
export const FailSafeMode = z.enum(FAIL_SAFE_MODES);
export type FailSafeMode = z.infer<typeof FailSafeMode>;

export const CONTENT_VIOLATION_ACTIONS = ['block', 'monitor'] as const;
export const ContentViolationAction = z.enum(CONTENT_VIOLATION_ACTIONS);
export type ContentViolationAction = z.infer<typeof ContentViolationAction>;

export const ThreatDetectionSettings = z.object({
  enabled: z.boolean().default(true),
  jailbreak_threshold: Score.default(0.8),
});
export type ThreatDetectionSettings = z.infer<typeof ThreatDetectionSettings>;

export const PiiSettings = z.object({
  enabled: z.boolean().default(true),
  types: z.array(PiiType).default(['EMAIL', 'PHONE_NUMBER']),
  mode: PiiMode.default('mask'),
});
export type PiiSettings = z.infer<typeof PiiSettings>;

export const TranslationSettings = z.object({
  enabled: z.boolean().default(true),
  target_lang: LanguageCode.default('en'),
});
export type TranslationSettings = z.infer<typeof TranslationSettings>;

export const ContentSafetySettings = z.object({
  enabled: z.boolean().default(false),
  blocked_categories: z.array(ContentSafetyCategory).default([]),
  controversial_as_unsafe: z.boolean().default(false),
  /** The global threshold for all 9 categories. */
  threshold: Score.default(0.5),
  /** Per-category overrides of the global threshold. */
  category_thresholds: z.partialRecord(ContentSafetyCategory, Score).default({}),
  response_enabled: z.boolean().default(false),
  response_blocked_categories: z.array(ContentSafetyCategory).default([]),
});
export type ContentSafetySettings = z.infer<typeof ContentSafetySettings>;

export const RESPONSE_STREAMING_MODES = ['incremental', 'buffer'] as const;
export const ResponseStreaming = z.enum(RESPONSE_STREAMING_MODES);
export type ResponseStreaming = z.infer<typeof ResponseStreaming>;

export const ResponseScanningSettings = z.object({
  /** Master switch: content safety and output PII skip responses when off. */
  enabled: z.boolean().default(true),
  pii_mode: ResponsePiiMode.default('disabled'),
  pii_types: z.array(PiiType).default([]),
  content_safety_enabled: z.boolean().default(false),
  response_blocked_categories: z.array(ContentSafetyCategory).default([]),
  action_on_content_violation: ContentViolationAction.default('block'),
  /**
   * `incremental`: a streamed answer (`stream: true`) reaches the client as it is generated, scanned
   * through a hold-back window; `buffer`: read whole, scanned, sent as one body (the spec's behaviour).
   * Content safety on responses needs the whole answer and forces `buffer`.
   */
  streaming: ResponseStreaming.default('incremental'),
  /** Characters held back at the stream's tail; null = sized from the profile's detectors. */
  stream_holdback_chars: z.number().int().min(16).max(65_536).nullable().default(null),
});
export type ResponseScanningSettings = z.infer<typeof ResponseScanningSettings>;

export const FailSafeSettings = z.object({ mode: FailSafeMode.default('fail-open') });
export type FailSafeSettings = z.infer<typeof FailSafeSettings>;

export const EventLoggingSettings = z.object({
  log_allow_decisions: z.boolean().default(false),
  disabled_event_types: z.array(SuppressibleEventType).default([]),
  /** Debugging: answers carry X-Service-Inspection (the checks run, scores and fired rule ids; never values). */
  inspection_header: z.boolean().default(false),
});
export type EventLoggingSettings = z.infer<typeof EventLoggingSettings>;

/** The writable fields of a profile (create body and CRD spec). */
export const ProfileSpec = z.object({
  name: Name,
  provider_id: Uuid,
  tenant_id: TenantId.optional(),
  monitor_only: z.boolean().default(false),
  threat_detection: ThreatDetectionSettings.prefault({}),
  pii: PiiSettings.prefault({}),
  translation: TranslationSettings.prefault({}),
  content_safety: ContentSafetySettings.prefault({}),
  response_scanning: ResponseScanningSettings.prefault({}),
  content_policy_ids: z.array(Uuid).default([]),
  detector_timeout_ms: z.number().int().min(100).max(60000).default(2000),
  /**
   * Longest prompt text (characters of the mapped text parts) the gateway inspects; a longer one is
   * refused with 413 PAYLOAD_TOO_LARGE, never forwarded uninspected. The default and the ceiling are
   * what every detector reads whole (the threat classifier's 1,000,000 characters).
   */
  max_inspected_chars: z.number().int().min(1000).max(MAX_INSPECTED_CHARS).default(MAX_INSPECTED_CHARS),
  action_on_timeout: DetectorAction.default('pass'),
  action_on_detector_error: DetectorAction.default('pass'),
  fail_safe: FailSafeSettings.prefault({}),
  /** HTTP status of a blocked response. */
  block_status_code: z.number().int().min(400).max(599).default(451),
  event_logging: EventLoggingSettings.prefault({}),
});
export type ProfileSpec = z.infer<typeof ProfileSpec>;

/** Top-level spellings of the spec's profile form → [nested object, field]. */
export const PROFILE_ALIASES = {
  jailbreak_threshold: ['threat_detection', 'jailbreak_threshold'],
  pii_types: ['pii', 'types'],
  pii_mode: ['pii', 'mode'],
} as const;

/**
 * Input normalisation: top-level aliases moved into their nested objects (an explicit nested value
 * wins), `fail_open`/`fail_closed` (and a bare string fail_safe) → `{mode: "fail-open"|"fail-closed"}`,
 * PII type names upper-cased (PHONE → PHONE_NUMBER), event types upper-cased.
 */
export function normaliseProfileInput(body: Record<string, unknown>): Record<string, unknown> {
  for (const [alias, [objectKey, field]] of Object.entries(PROFILE_ALIASES)) {
    if (!(alias in body)) continue;
    const value = body[alias];
    delete body[alias];
    const nested = body[objectKey] ?? {};
    if (!isPlainObject(nested)) continue; // the schema reports the bad nested value
    body[objectKey] = field in nested ? nested : { ...nested, [field]: value };
  }
  if (typeof body.fail_safe === 'string') body.fail_safe = { mode: body.fail_safe };
  editNested(body, 'fail_safe', (o) => {
    if (typeof o.mode === 'string') o.mode = o.mode.toLowerCase().replace('_', '-');
  });
  editNested(body, 'pii', (o) => {
    if ('types' in o) o.types = normalisePiiTypes(o.types);
  });
  editNested(body, 'response_scanning', (o) => {
    if ('pii_types' in o) o.pii_types = normalisePiiTypes(o.pii_types);
  });
  editNested(body, 'event_logging', (o) => {
    if (Array.isArray(o.disabled_event_types)) {
      o.disabled_event_types = o.disabled_event_types.map((t) => (typeof t === 'string' ? t.toUpperCase() : t));
    }
  });
  return body;
}

function editNested(body: Record<string, unknown>, key: string, edit: (o: Record<string, unknown>) => void) {
  const nested = body[key];
  if (!isPlainObject(nested)) return;
  const copy = { ...nested };
  edit(copy);
  body[key] = copy;
}

/** A policy id listed twice is a mistake in the request, not a harmless repeat. */
function checkProfile(value: { content_policy_ids?: string[] | undefined }, ctx: z.RefinementCtx) {
  const seen = new Set<string>();
  value.content_policy_ids?.forEach((id, i) => {
    if (seen.has(id)) {
      ctx.addIssue({ code: 'custom', path: ['content_policy_ids', i], message: `duplicate content policy id ${id}` });
    }
    seen.add(id);
  });
}

export const ProfileCreate = withInput(normaliseProfileInput, ProfileSpec.superRefine(checkProfile));
export type ProfileCreate = z.output<typeof ProfileCreate>;
export type ProfileCreateInput = z.input<typeof ProfileSpec> & {
  jailbreak_threshold?: number;
  pii_types?: string[];
  pii_mode?: string;
};

/** provider_id is read-only after creation (spec): a profile is rebound by creating another. */
export const PROFILE_IMMUTABLE_FIELDS = ['provider_id'] as const;

const { provider_id: _providerId, ...mutableShape } = ProfileSpec.shape;

/** Partial update: nested objects merge field by field; nothing is reset to its default. */
export const ProfileUpdateBody = z.object({ ...updateShape(mutableShape), provider_id: immutable('provider_id') });
export const ProfileUpdate = withInput(normaliseProfileInput, ProfileUpdateBody.superRefine(checkProfile));
export type ProfileUpdate = z.output<typeof ProfileUpdate>;

/** The stored profile. */
export const Profile = ProfileSpec.extend({
  ...recordMeta,
  status: LifecycleStatus.default('DRAFT'),
});
export type Profile = z.infer<typeof Profile>;
