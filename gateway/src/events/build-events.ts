// The decision point's event drafts (or events the pipeline adds itself: PROVIDER_ERROR, RATE_LIMIT, …)
// plus what the pipeline knows of the request → core SecurityEvents, all with the request's trace id
// and one timestamp (spec, Security events rule 3).
import { assembleSecurityEvents, SECRET_PII_TYPES, type InspectionCheck, type PiiEntity, type PiiType, type Profile, type SecurityEvent } from '@palisade/core';
import { detectPii } from '@palisade/detectors';
import type { DecisionEvent } from '../decision/types.js';
import { filterEvents } from '../decision/filter-events.js';
import { extend } from '../objects.js';

/** What the pipeline knows of the request; shared by every event of it. */
export interface SecurityEventContext {
  /** X-Trace-ID when the client sent one, else the gateway's own. */
  trace_id: string;
  tenant_id: string;
  source_ip?: string | null;
  provider_id?: string | null;
  provider_name?: string | null;
  profile_id?: string | null;
  model?: string | null;
  /** The call's prompt, one holder shared by all of its events (its stored form is computed once). */
  user_prompt?: EventPrompt | null;
  latency_ms?: number | null;
  /** The decision's proof of inspection (the checks run, their scores and fired rules). */
  inspection?: InspectionCheck[] | undefined;
}

/** What a call knows of itself before any event (the extracted request's context). */
export type CallEventContext = Omit<SecurityEventContext, 'trace_id' | 'tenant_id' | 'latency_ms' | 'inspection'>;

/**
 * The context of one side's events (the request's, the answer's, buffered or streamed): the call's,
 * with that side's time (null when it has none, as a stream's) and checks.
 */
export function sideEventContext(call: { context: CallEventContext; traceId: string; tenantId: string }, latencyMs: number | null, inspection: InspectionCheck[]): SecurityEventContext {
  return extend(call.context, { trace_id: call.traceId, tenant_id: call.tenantId, latency_ms: latencyMs, inspection });
}

/** A decision's event as is, or one the pipeline adds: only the type is required. */
export type SecurityEventPart = Pick<DecisionEvent, 'event_type'> & Partial<Omit<DecisionEvent, 'event_type'>>;

export interface BuildSecurityEventsOptions {
  /** When given, the spec's suppression rules 1-2 are applied first (filterEvents). */
  profile?: Pick<Profile, 'event_logging'> | undefined;
  /** The timestamp of every event (default: now). */
  now?: Date;
}

// The record's length limits (core SecurityEvent). These values come from the client (headers, the
// body's model), and an over-long one must cost a truncated field, never the event.
const MAX = { trace_id: 128, tenant_id: 255, source_ip: 64, provider_name: 255, model: 255, action: 64 } as const;

function clip(value: string, max: number): string {
  return value.length > max ? value.slice(0, max) : value;
}

function clipNullable(value: string | null | undefined, max: number): string | null {
  return value === undefined || value === null ? null : clip(value, max);
}

const SECRET_TYPES: ReadonlySet<PiiType> = new Set(SECRET_PII_TYPES);

/**
 * The longest prompt an event keeps. A longer one keeps its head and its tail (where a padded attack
 * sits), the middle elided: a request's events stay bounded in the stream and the database whatever
 * the client sends, and the credential scan below stays cheap.
 */
export const EVENT_PROMPT_MAX_CHARS = 32_768;
/** How far a cut looks for whitespace, so that it does not split a token (a key) in two. */
const CUT_SEARCH = 1_024;

function elideMiddle(prompt: string): string {
  if (prompt.length <= EVENT_PROMPT_MAX_CHARS) return prompt;
  const half = EVENT_PROMPT_MAX_CHARS / 2;
  const headSpace = prompt.lastIndexOf(' ', half);
  const headEnd = headSpace > half - CUT_SEARCH ? headSpace : half;
  const tailSpace = prompt.indexOf(' ', prompt.length - half);
  const tailStart = tailSpace >= 0 && tailSpace < prompt.length - half + CUT_SEARCH ? tailSpace + 1 : prompt.length - half;
  return `${prompt.slice(0, headEnd)} …[${prompt.length - headEnd - (prompt.length - tailStart)} characters not kept]… ${prompt.slice(tailStart)}`;
}

/**
 * The prompt as events store it: bounded, each credential the PII detector finds (API keys, tokens,
 * keys…) masked, and the values of `alsoMask`. A detector pass over the bounded text, not a search for
 * each known value, so the cost stays linear whatever the number of values.
 */
function promptForEvents(prompt: string, alsoMask: readonly PiiType[] = []): string {
  const text = elideMiddle(prompt);
  const types = alsoMask.length > 0 ? [...new Set<PiiType>([...SECRET_PII_TYPES, ...alsoMask])] : SECRET_PII_TYPES;
  // 'output': every type is known there (credentials are an answer-side family for the spec).
  const spans = detectPii(text, { direction: 'output', types });
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (const span of [...spans].sort((a, b) => a.start - b.start)) {
    if (span.start < at) continue;
    out += text.slice(at, span.start) + span.masked;
    at = span.end;
  }
  return out + text.slice(at);
}

/**
 * A call's prompt: the text as the client sent it, and the form its events store, computed by the
 * first event built and kept for the call's later ones (the request's, the answer's, a failure's): the
 * credential scan is a detector pass over up to 32 KB, once per call.
 */
export class EventPrompt {
  private stored: string | undefined;
  private alsoMask: readonly PiiType[] = [];
  constructor(readonly text: string) {}

  /**
   * Masks these types' values too in the stored form, for every event of the call built from now on:
   * a pseudonymised call's types, whose values must not outlive the request.
   */
  maskAlso(types: readonly PiiType[]): void {
    this.alsoMask = types;
    this.stored = undefined;
  }

  forEvents(): string {
    if (this.text === '') return '';
    return (this.stored ??= promptForEvents(this.text, this.alsoMask));
  }
}

/** A finding as the record keeps it: the detector's score and trust mark are left out, a credential is masked. */
function storedEntity(e: PiiEntity): PiiEntity {
  return { type: e.type, start: e.start, end: e.end, value: SECRET_TYPES.has(e.type) ? e.masked : e.value, masked: e.masked };
}

/**
 * Builds the events of one request. Severity, when a part carries none, is core's default for the type
 * (DECISIONS.md); PII entities keep the record's fields only. Client-supplied strings are truncated to
 * the record's limits; the readers of the stream validate each event (assembleSecurityEvents).
 */
export function buildSecurityEvents(
  parts: readonly SecurityEventPart[],
  context: SecurityEventContext,
  options: BuildSecurityEventsOptions = {},
): SecurityEvent[] {
  const kept = options.profile ? filterEvents(parts, options.profile) : parts;
  if (kept.length === 0) return [];
  const now = options.now ?? new Date();
  // A credential is never kept in clear (personal data is, until detail retention masks it): in the
  // stored prompt and in the entities the detectors reported, it is in its masked form.
  const shared = {
    trace_id: clip(context.trace_id, MAX.trace_id),
    tenant_id: clip(context.tenant_id, MAX.tenant_id),
    source_ip: clipNullable(context.source_ip, MAX.source_ip),
    provider_id: context.provider_id ?? null,
    provider_name: clipNullable(context.provider_name, MAX.provider_name),
    profile_id: context.profile_id ?? null,
    model: clipNullable(context.model, MAX.model),
    user_prompt: context.user_prompt ? context.user_prompt.forEvents() : null,
    latency_ms: context.latency_ms === undefined || context.latency_ms === null ? null : Math.max(0, context.latency_ms),
  };
  return assembleSecurityEvents(
    shared,
    kept.map((part) => ({
      event_type: part.event_type,
      severity: part.severity,
      action: clipNullable(part.action, MAX.action),
      decision: part.decision ?? null,
      reasons: part.reasons ?? [],
      jailbreak_score: part.jailbreak_score ?? null,
      pii_entities: (part.pii_entities ?? []).map(storedEntity),
      categories: part.categories ?? [],
      policy_ids: part.policy_ids ?? [],
    })),
    context.inspection ?? [],
    now,
  );
}
