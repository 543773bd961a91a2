// Builders for decision tests: a stored profile with defaults filled by core's schema, and detector
// outcomes as the pipeline reports them.
import {
  Profile,
  type ContentSafetyCategory,
  type ContentSafetyVerdict,
  type PiiType,
} from '@palisade/core';
import type {
  ContentPolicyResult,
  DecisionInput,
  DecisionPiiEntity,
  DecisionResult,
  DetectorOutcome,
} from '../decision/types.js';

/** A stored ACTIVE profile; `spec` is the writable part (nested blocks get their defaults). */
export function makeProfile(spec: Record<string, unknown> = {}): Profile {
  return Profile.parse({
    id: '00000000-0000-4000-8000-000000000001',
    tenant_id: 'default',
    name: 'test-profile',
    provider_id: '00000000-0000-4000-8000-000000000002',
    status: 'ACTIVE',
    created_at: '2024-01-01T00:00:00Z',
    updated_at: '2024-01-01T00:00:00Z',
    ...spec,
  });
}

export const ok = <R>(result: R, latency_ms = 3): DetectorOutcome<R> => ({ status: 'ok', latency_ms, result });
export const timeout = (latency_ms = 2000) => ({ status: 'timeout', latency_ms }) as const;
export const failed = (error = 'connection refused') => ({ status: 'error', latency_ms: 1, error }) as const;
export const unavailable = () => ({ status: 'unavailable', latency_ms: 1, error: 'no GPU' }) as const;
export const skipped = (reason = 'disabled') => ({ status: 'skipped', reason }) as const;

export const threat = (threat_score: number) =>
  ok({ threat_score, threat_decision: threat_score >= 0.5 ? ('unsafe' as const) : ('safe' as const) });

export function entity(type: PiiType, start: number, end: number, extra: Partial<DecisionPiiEntity> = {}): DecisionPiiEntity {
  return { type, start, end, value: `v${start}`, masked: `[${type}]`, score: 0.9, ...extra };
}
export const pii = (...entities: DecisionPiiEntity[]) => ok({ entities });

export function safety(...categories: Array<[ContentSafetyCategory, ContentSafetyVerdict, number?]>) {
  const scores = { Safe: 0, Controversial: 0.5, Unsafe: 0.95 } as const;
  const verdict: ContentSafetyVerdict = categories.some((c) => c[1] === 'Unsafe')
    ? 'Unsafe'
    : categories.some((c) => c[1] === 'Controversial')
      ? 'Controversial'
      : 'Safe';
  return ok({ verdict, categories: categories.map(([category, v, score]) => ({ category, verdict: v, score: score ?? scores[v] })) });
}

type Fired = { id: string; action: 'block' | 'flag' | 'trust_pii'; name?: string; spans?: Array<[number, number]> };

/** An evaluate answer where `fired` policies fired (block ones with one match each). */
export function policies(...fired: Fired[]) {
  const rank = { block: 3, flag: 2, trust_pii: 1 } as const;
  const strictest = fired.reduce<Fired['action'] | null>((a, p) => (a === null || rank[p.action] > rank[a] ? p.action : a), null);
  const result: ContentPolicyResult = {
    blocked: fired.some((p) => p.action === 'block'),
    action: strictest,
    matches: fired
      .filter((p) => p.action !== 'trust_pii')
      .map((p) => ({ policy_id: p.id, rule_index: 0, kind: 'keyword' as const, start: 0, end: 3, text: 'bad' })),
    trusted_spans: fired.flatMap((p) => (p.spans ?? []).map(([start, end]) => ({ policy_id: p.id, start, end, text: 'x' }))),
    fired_policies: fired.map((p) => ({
      policy_id: p.id,
      name: p.name ?? null,
      type: 'blocklist' as const,
      action: p.action,
      priority: 0,
      reason: 'rule_match' as const,
    })),
  };
  return ok(result);
}

export function request(profile: Profile, detectors: Omit<DecisionInput, 'profile' | 'direction'> = {}): DecisionInput {
  return { profile, direction: 'request', ...detectors };
}
export function response(profile: Profile, detectors: Omit<DecisionInput, 'profile' | 'direction'> = {}): DecisionInput {
  return { profile, direction: 'response', ...detectors };
}

/** `TYPE:ACTION` of each event, in order: compact to assert on. */
export const eventsOf = (result: DecisionResult) => result.events.map((e) => `${e.event_type}:${e.action}`);
export const eventOf = (result: DecisionResult, type: string) => result.events.find((e) => e.event_type === type);
