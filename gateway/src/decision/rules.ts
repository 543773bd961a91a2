// One rule per detector: what its result means under the profile, for a request or a response
// (README.md, "Rules"). Each rule records levels, reasons and cause events in the findings.
import { VERDICT_SCORE, contentSafetyOnAnswers, type ContentSafetyCategory, type PiiType, type Profile, type ResponsePiiMode } from '@palisade/core';
import { BLOCK, SANITIZE, WOULD_BLOCK, addEvent, raise, type Findings } from './findings.js';
import type {
  ContentPolicyResult,
  ContentSafetyResult,
  DecisionDirection,
  DecisionPiiEntity,
  PiiResult,
  ThreatResult,
} from './types.js';

/** Scores in reasons: enough digits to compare with a threshold, no float noise. */
const num = (n: number) => String(Math.round(n * 10_000) / 10_000);

export function threatEnabled(profile: Profile, direction: DecisionDirection): boolean {
  // Jailbreak detection looks at prompts; answers are scanned for PII, content safety and policies.
  return direction === 'request' && profile.threat_detection.enabled;
}

export function applyThreat(f: Findings, result: ThreatResult): void {
  const score = result.threat_score;
  const threshold = f.profile.threat_detection.jailbreak_threshold;
  f.jailbreakScore = score;
  if (score < threshold) return;
  const reason = `jailbreak score ${num(score)} >= threshold ${num(threshold)}`;
  f.reasons.push(reason);
  raise(f, BLOCK, true);
  addEvent(f, 'JAILBREAK_DETECTED', 'BLOCK', [reason]);
}

/** The PII mode in force, or null when PII is not checked in this direction. */
export function piiMode(profile: Profile, direction: DecisionDirection): ResponsePiiMode | Profile['pii']['mode'] | null {
  if (direction === 'request') return profile.pii.enabled ? profile.pii.mode : null;
  const mode = profile.response_scanning.pii_mode;
  return mode === 'disabled' ? null : mode;
}

/** Request: pii.types. Response: response_scanning.pii_types, where an empty list means every type. */
function isCheckedType(profile: Profile, direction: DecisionDirection, type: PiiType): boolean {
  if (direction === 'request') return profile.pii.types.includes(type);
  const types = profile.response_scanning.pii_types;
  return types.length === 0 || types.includes(type);
}

interface Span {
  start: number;
  end: number;
}

function overlapsAny(e: Span, spans: readonly Span[]): boolean {
  for (const s of spans) if (e.start < s.end && s.start < e.end) return true;
  return false;
}

/** Entities overlapping a trust_pii span become trusted (copies; the detector's objects stay as sent). */
export function markTrusted(entities: DecisionPiiEntity[], spans: readonly Span[]): DecisionPiiEntity[] {
  if (spans.length === 0) return entities;
  // Built field by field: one object shape for every entity keeps the later passes monomorphic.
  return entities.map((e) =>
    e.trusted || !overlapsAny(e, spans)
      ? e
      : { type: e.type, start: e.start, end: e.end, value: e.value, masked: e.masked, score: e.score, trusted: true },
  );
}

function typeList(entities: readonly DecisionPiiEntity[]): string {
  const types: string[] = [];
  for (const e of entities) if (!types.includes(e.type)) types.push(e.type);
  return types.join(', ');
}

export function applyPii(f: Findings, mode: NonNullable<ReturnType<typeof piiMode>>, result: PiiResult, trusted: readonly Span[]): void {
  const entities = markTrusted(result.entities, trusted);
  f.piiEntities = entities;
  const acted = entities.filter((e) => !e.trusted && isCheckedType(f.profile, f.direction, e.type));
  if (acted.length === 0) return;
  f.actedEntities = acted;
  const request = f.direction === 'request';
  const reason = `${request ? 'PII' : 'output PII'} found (${typeList(acted)}); ${request ? 'pii mode' : 'response pii_mode'} ${mode}`;
  f.reasons.push(reason);
  if (mode === 'block') raise(f, BLOCK, true);
  if (mode === 'mask' || mode === 'redact' || mode === 'pseudonymize') {
    raise(f, SANITIZE, true);
    f.sanitizeMode = mode;
  }
  // Responses: the outcome event (RESPONSE_REDACTED, RESPONSE_BLOCKED) records mask and block.
  if (request) addEvent(f, 'PII_DETECTED', mode.toUpperCase(), [reason], { pii_entities: acted });
  else if (mode === 'monitor') addEvent(f, 'RESPONSE_REDACTED', 'MONITOR', [reason], { pii_entities: acted });
}

export function contentSafetyEnabled(profile: Profile, direction: DecisionDirection): boolean {
  return direction === 'request' ? profile.content_safety.enabled : contentSafetyOnAnswers(profile);
}

/** Request: blocked_categories. Response: the union of both response_blocked_categories lists. */
function isBlockedCategory(profile: Profile, direction: DecisionDirection, category: ContentSafetyCategory): boolean {
  if (direction === 'request') return profile.content_safety.blocked_categories.includes(category);
  return (
    profile.response_scanning.response_blocked_categories.includes(category) ||
    profile.content_safety.response_blocked_categories.includes(category)
  );
}

/**
 * A listed category fires when its verdict is Unsafe — or Controversial with controversial_as_unsafe,
 * then scored as Unsafe — and its score reaches category_thresholds[category] ?? threshold.
 */
export function applyContentSafety(f: Findings, result: ContentSafetyResult): void {
  const settings = f.profile.content_safety;
  const reasons: string[] = [];
  const fired: ContentSafetyCategory[] = [];
  for (const c of result.categories) {
    if (c.verdict === 'Safe' || fired.includes(c.category) || !isBlockedCategory(f.profile, f.direction, c.category)) continue;
    const promoted = c.verdict === 'Controversial';
    if (promoted && !settings.controversial_as_unsafe) continue;
    const score = promoted ? Math.max(c.score, VERDICT_SCORE.Unsafe) : c.score;
    const threshold = settings.category_thresholds[c.category] ?? settings.threshold;
    if (score < threshold) continue;
    fired.push(c.category);
    reasons.push(`content safety ${c.category} ${c.verdict}${promoted ? ' (as Unsafe)' : ''} score ${num(score)} >= threshold ${num(threshold)}`);
  }
  if (fired.length === 0) return;
  f.categories = fired;
  f.reasons.push(...reasons);
  if (f.direction === 'request') {
    raise(f, BLOCK, true);
    addEvent(f, 'POLICY_VIOLATION', 'BLOCK', reasons, { categories: fired });
  } else if (f.profile.response_scanning.action_on_content_violation === 'block') {
    raise(f, BLOCK, true);
  } else {
    addEvent(f, 'RESPONSE_MONITOR_ALERT', WOULD_BLOCK, reasons, { categories: fired, decision: 'BLOCK' });
  }
}

interface FiredPolicy {
  policy_id: string;
  name?: string | null | undefined;
  action: string;
}

const label = (p: FiredPolicy) => (p.name ? `"${p.name}" (${p.policy_id})` : p.policy_id);

/** Without fired_policies: every policy named by a match or span, with the answer's strictest action. */
function firedPolicies(result: ContentPolicyResult): readonly FiredPolicy[] {
  if (result.fired_policies) return result.fired_policies;
  const action = result.blocked ? 'block' : (result.action ?? 'flag');
  const fired: FiredPolicy[] = [];
  for (const m of result.matches) if (!fired.some((p) => p.policy_id === m.policy_id)) fired.push({ policy_id: m.policy_id, action });
  for (const s of result.trusted_spans) {
    if (!fired.some((p) => p.policy_id === s.policy_id)) fired.push({ policy_id: s.policy_id, action: 'trust_pii' });
  }
  return fired;
}

/**
 * block → BLOCK with CUSTOM_POLICY_BLOCK; flag → CUSTOM_POLICY_FLAG only. trust_pii acts in applyPii
 * (its spans) and never lifts a block.
 */
export function applyContentPolicy(f: Findings, result: ContentPolicyResult): void {
  const blocking: string[] = [];
  const flagging: string[] = [];
  const blockReasons: string[] = [];
  const flagReasons: string[] = [];
  for (const p of firedPolicies(result)) {
    if (!f.policyIds.includes(p.policy_id)) f.policyIds.push(p.policy_id);
    if (p.action === 'block') {
      blocking.push(p.policy_id);
      blockReasons.push(`content policy ${label(p)}: block`);
    } else if (p.action === 'flag') {
      flagging.push(p.policy_id);
      flagReasons.push(`content policy ${label(p)}: flag`);
    }
  }
  if (result.blocked || result.action === 'block') {
    if (blockReasons.length === 0) blockReasons.push('content policy: block');
    f.reasons.push(...blockReasons);
    raise(f, BLOCK, false);
    addEvent(f, 'CUSTOM_POLICY_BLOCK', 'BLOCK', blockReasons, { policy_ids: blocking });
  }
  if (flagging.length > 0) {
    f.reasons.push(...flagReasons);
    addEvent(f, 'CUSTOM_POLICY_FLAG', 'FLAG', flagReasons, { policy_ids: flagging });
  }
}
