// What the rules found for one decision, and how it turns into the result: the strictest level wins,
// monitor mode replaces what would have been done, and the outcome event is added last (README.md,
// "Events"). One plain object per call, filled in place: decide() runs on every inspected request.
import {
  DEFAULT_SEVERITY_BY_EVENT_TYPE,
  ERROR_CATALOGUE,
  type ContentSafetyCategory,
  type Decision,
  type EventType,
  type Profile,
} from '@palisade/core';
import type {
  BlockDetailsEntity,
  DecisionBlock,
  DecisionDirection,
  DecisionEvent,
  DecisionPiiEntity,
  DecisionResult,
  SanitizeMode,
} from './types.js';

/** Strictness: BLOCK > SANITIZE (REDACT for responses) > ALLOW (PASS). */
export const ALLOW = 0;
export const SANITIZE = 1;
export const BLOCK = 2;
export type Level = typeof ALLOW | typeof SANITIZE | typeof BLOCK;

const REQUEST_DECISIONS = ['ALLOW', 'SANITIZE', 'BLOCK'] as const;
const RESPONSE_DECISIONS = ['PASS', 'REDACT', 'BLOCK'] as const;
/** The event record's vocabulary (core Decision) for both directions: REDACT is the answer's SANITIZE. */
const EVENT_DECISIONS = ['ALLOW', 'SANITIZE', 'BLOCK'] as const satisfies readonly Decision[];

/** The spec's wording for a monitor alert, whichever decision was replaced. */
export const WOULD_BLOCK = 'WOULD_BLOCK';

export interface Findings {
  readonly profile: Profile;
  readonly direction: DecisionDirection;
  readonly monitor: boolean;
  level: Level;
  /** A block caused by something other than a content policy: the request answer is POLICY_VIOLATION. */
  detectorBlock: boolean;
  reasons: string[];
  /** Cause events; `decision` null until finish() sets the effective one. */
  events: DecisionEvent[];
  jailbreakScore: number | null;
  piiEntities: DecisionPiiEntity[];
  /** Untrusted entities of the checked types: what PII rules act on. */
  actedEntities: DecisionPiiEntity[];
  sanitizeMode: SanitizeMode | null;
  categories: ContentSafetyCategory[];
  policyIds: string[];
}

export function createFindings(profile: Profile, direction: DecisionDirection): Findings {
  return {
    profile,
    direction,
    monitor: profile.monitor_only,
    level: ALLOW,
    detectorBlock: false,
    reasons: [],
    events: [],
    jailbreakScore: null,
    piiEntities: [],
    actedEntities: [],
    sanitizeMode: null,
    categories: [],
    policyIds: [],
  };
}

/** Records a finding that asks for `level`; `byDetector` false only for a content policy's block. */
export function raise(f: Findings, level: Level, byDetector: boolean): void {
  if (level > f.level) f.level = level;
  if (level === BLOCK && byDetector) f.detectorBlock = true;
}

export interface EventContext {
  pii_entities?: DecisionPiiEntity[];
  categories?: string[];
  policy_ids?: string[];
  /** Set only where the event names another decision than the effective one (monitor alerts). */
  decision?: Decision;
}

/** Adds a cause event; an acting action (BLOCK, MASK, REDACT) reads WOULD_<action> in monitor mode. */
export function addEvent(f: Findings, type: EventType, action: string, reasons: string[], context: EventContext = {}): DecisionEvent {
  const event: DecisionEvent = {
    event_type: type,
    severity: DEFAULT_SEVERITY_BY_EVENT_TYPE[type],
    action: f.monitor && isActing(action) ? `WOULD_${action}` : action,
    decision: context.decision ?? null,
    reasons,
    jailbreak_score: null,
    pii_entities: context.pii_entities ?? [],
    categories: context.categories ?? [],
    policy_ids: context.policy_ids ?? [],
  };
  f.events.push(event);
  return event;
}

const isActing = (action: string) => action === 'BLOCK' || action === 'MASK' || action === 'REDACT';

function blockOf(f: Findings): DecisionBlock {
  if (f.direction === 'response') return { code: 'RESPONSE_BLOCKED', status: f.profile.block_status_code };
  if (!f.detectorBlock) return { code: 'CUSTOM_POLICY_BLOCK', status: ERROR_CATALOGUE.CUSTOM_POLICY_BLOCK.status };
  const pii_entities: BlockDetailsEntity[] = f.actedEntities.map((e) => ({ type: e.type, start: e.start, end: e.end, masked: e.masked }));
  return {
    code: 'POLICY_VIOLATION',
    status: ERROR_CATALOGUE.POLICY_VIOLATION.status,
    details: { jailbreak_score: f.jailbreakScore, pii_entities },
  };
}

/** The outcome event of the decision, or null (a response that simply passes). */
function outcomeEvent(f: Findings, monitored: boolean): [EventType, string] | null {
  const request = f.direction === 'request';
  if (monitored) return [request ? 'MONITOR_ALERT' : 'RESPONSE_MONITOR_ALERT', WOULD_BLOCK];
  if (f.level === BLOCK) return [request ? 'REQUEST_BLOCKED' : 'RESPONSE_BLOCKED', 'BLOCK'];
  if (f.level === SANITIZE) {
    const action = f.sanitizeMode === 'redact' ? 'REDACT' : 'MASK';
    return [request ? 'REQUEST_SANITIZED' : 'RESPONSE_REDACTED', action];
  }
  return request ? ['REQUEST_ALLOWED', 'ALLOW'] : null;
}

export function finish(f: Findings): DecisionResult {
  const level = f.level;
  const monitored = f.monitor && level !== ALLOW;
  const eventDecision: Decision = monitored ? 'MONITOR_ONLY' : EVENT_DECISIONS[level];
  for (const event of f.events) {
    event.decision ??= eventDecision;
    event.jailbreak_score = f.jailbreakScore;
  }
  const outcome = outcomeEvent(f, monitored);
  if (outcome) {
    // A monitor alert names the decision it replaced; the others the one carried out.
    f.events.push({
      event_type: outcome[0],
      severity: DEFAULT_SEVERITY_BY_EVENT_TYPE[outcome[0]],
      action: outcome[1],
      decision: monitored ? EVENT_DECISIONS[level] : eventDecision,
      reasons: f.reasons,
      jailbreak_score: f.jailbreakScore,
      pii_entities: f.actedEntities,
      categories: f.categories,
      policy_ids: f.policyIds,
    });
  }
  const common = {
    monitor: f.monitor,
    reasons: f.reasons,
    block: !monitored && level === BLOCK ? blockOf(f) : null,
    sanitize: !monitored && level === SANITIZE ? { mode: f.sanitizeMode ?? 'mask', entities: f.actedEntities } : null,
    jailbreak_score: f.jailbreakScore,
    pii_entities: f.piiEntities,
    categories: f.categories,
    policy_ids: f.policyIds,
    events: f.events,
  };
  if (f.direction === 'request') {
    const decision = REQUEST_DECISIONS[level];
    return { direction: 'request', decision, effective: monitored ? 'MONITOR_ONLY' : decision, ...common };
  }
  const decision = RESPONSE_DECISIONS[level];
  return { direction: 'response', decision, effective: monitored ? 'PASS' : decision, ...common };
}
