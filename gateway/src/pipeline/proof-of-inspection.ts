// The proof of inspection of one side of a call: which checks ran on what, with which model, score and
// threshold, how long, and which content policy rules fired. It goes into the security events of the
// decision (`inspection`) and, when the profile asks, into X-Service-Inspection. Ids and numbers only:
// a matched value or any prompt text never appears here; a skipped check's reason is a fixed id.
import { INSPECTION_DETECTORS, type FiredRule, type InspectionCheck, type InspectionSkipReason, type Profile } from '@palisade/core';

export const INSPECTION_HEADER = 'x-service-inspection';

type Side = InspectionCheck['side'];
interface Outcome {
  status: string;
  latency_ms?: number;
  result?: unknown;
  /** A skipped outcome's text: one of SKIP_REASONS. */
  reason?: string;
}

/**
 * The fixed texts a skipped detector outcome carries, each with the id its check records. The request's
 * and the buffered answer's detectors take only these texts (SkipText); the streamed answer's window
 * check (streaming/window-check.ts) uses the same texts. Anything else is recorded as `other`, so no
 * text reaches an event or the header through a reason.
 */
export const SKIP_REASONS = {
  'threat detection is off in the profile': 'off_in_profile',
  'PII detection is off in the profile': 'off_in_profile',
  'content safety is off in the profile': 'off_in_profile',
  'response PII scanning is disabled': 'off_in_profile',
  'content safety on responses is off in the profile': 'off_in_profile',
  'no active content policy in the profile': 'no_active_policy',
  'no active response content policy in the profile': 'no_active_policy',
  'no prompt text to check': 'no_text',
  'no answer text to check': 'no_text',
  'content safety needs the whole answer (buffered)': 'needs_whole_answer',
} as const satisfies Record<string, InspectionSkipReason>;
export type SkipText = keyof typeof SKIP_REASONS;

export function skipReasonOf(text: string | undefined): InspectionSkipReason {
  return text !== undefined && Object.hasOwn(SKIP_REASONS, text) ? SKIP_REASONS[text as SkipText] : 'other';
}
export type InspectionOutcomes = Partial<Record<(typeof INSPECTION_DETECTORS)[number], Outcome>>;

const MAX_FIRED_RULES = 20;
const round = (n: number) => Math.round(n * 1000) / 1000;
const scoreOf = (n: unknown) => (typeof n === 'number' && Number.isFinite(n) ? Math.min(1, Math.max(0, round(n))) : null);

function firedRules(matches: ReadonlyArray<{ policy_id?: unknown; rule_index?: unknown }>): FiredRule[] {
  const seen = new Set<string>();
  const rules: FiredRule[] = [];
  for (const match of matches) {
    if (typeof match.policy_id !== 'string' || typeof match.rule_index !== 'number') continue;
    const key = `${match.policy_id}#${match.rule_index}`;
    if (seen.has(key)) continue;
    seen.add(key);
    rules.push({ policy_id: match.policy_id.slice(0, 64), rule_index: match.rule_index });
    if (rules.length === MAX_FIRED_RULES) break;
  }
  return rules;
}

function checkOf(detector: (typeof INSPECTION_DETECTORS)[number], side: Side, outcome: Outcome, profile: Profile): InspectionCheck {
  const check: InspectionCheck = {
    detector,
    side,
    status: outcome.status as InspectionCheck['status'],
    model_version: null,
    score: null,
    threshold: null,
    latency_ms: outcome.latency_ms === undefined ? null : Math.max(0, round(outcome.latency_ms)),
    findings: 0,
    fired_rules: [],
    reason: outcome.status === 'skipped' ? skipReasonOf(outcome.reason) : null,
  };
  const result = outcome.result as Record<string, unknown> | undefined;
  if (outcome.status !== 'ok' || !result) return check;
  if (detector === 'threat') {
    check.model_version = typeof result.model_version === 'string' ? result.model_version.slice(0, 128) : null;
    check.score = scoreOf(result.threat_score);
    check.threshold = profile.threat_detection.jailbreak_threshold;
    check.findings = check.score !== null && check.score >= check.threshold ? 1 : 0;
  } else if (detector === 'pii') {
    const entities = ((result.entities as Array<{ score?: number; trusted?: boolean }> | undefined) ?? []).filter((e) => !e.trusted);
    check.findings = entities.length;
    check.score = entities.length ? scoreOf(Math.max(...entities.map((e) => e.score ?? 0))) : null;
  } else if (detector === 'content_policy') {
    const matches = (result.matches as Array<{ policy_id?: unknown; rule_index?: unknown }> | undefined) ?? [];
    check.findings = matches.length;
    check.fired_rules = firedRules(matches);
  } else {
    const flagged = ((result.categories as Array<{ verdict?: string; score?: number }> | undefined) ?? []).filter((c) => c.verdict && c.verdict !== 'Safe');
    check.findings = flagged.length;
    check.score = flagged.length ? scoreOf(Math.max(...flagged.map((c) => c.score ?? 0))) : null;
    check.threshold = profile.content_safety.threshold;
    check.model_version = typeof result.model === 'string' ? result.model.slice(0, 128) : null;
  }
  return check;
}

/** The checks of one side, in a fixed order; a detector the side does not run is left out. */
export function inspectionChecks(side: Side, outcomes: InspectionOutcomes, profile: Profile): InspectionCheck[] {
  const checks: InspectionCheck[] = [];
  for (const detector of INSPECTION_DETECTORS) {
    const outcome = outcomes[detector];
    if (outcome) checks.push(checkOf(detector, side, outcome, profile));
  }
  return checks;
}

// A model name comes from a detector's answer: only header-safe characters go out.
const headerToken = (value: string) => value.replace(/[^A-Za-z0-9._:/+-]/g, '_').slice(0, 64);

/**
 * X-Service-Inspection: `side.detector=status;score=…;threshold=…;model=…;findings=…;ms=…;rules=policy#index|…`,
 * the checks separated by commas; a skipped check adds `reason=<id>` (an id of INSPECTION_SKIP_REASONS,
 * so the header stays ids and numbers, and a reader that knows no `reason` skips the field).
 */
export function formatInspectionHeader(checks: readonly InspectionCheck[]): string {
  return checks
    .map((c) => {
      const fields = [`${c.side}.${c.detector}=${c.status}`];
      if (c.score !== null) fields.push(`score=${c.score}`);
      if (c.threshold !== null) fields.push(`threshold=${c.threshold}`);
      if (c.model_version) fields.push(`model=${headerToken(c.model_version)}`);
      if (c.status === 'ok') fields.push(`findings=${c.findings}`);
      if (c.latency_ms !== null) fields.push(`ms=${c.latency_ms}`);
      if (c.fired_rules.length) fields.push(`rules=${c.fired_rules.map((r) => `${headerToken(r.policy_id)}#${r.rule_index}`).join('|')}`);
      if (c.reason) fields.push(`reason=${c.reason}`);
      return fields.join(';');
    })
    .join(', ');
}
