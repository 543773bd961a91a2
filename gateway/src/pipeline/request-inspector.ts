// Steps 2-5 of the spec's per-request pipeline for a routed call with an ACTIVE profile: normalize the
// mapped prompt, run the detectors in parallel under detector_timeout_ms, ask the decision point, and
// act — BLOCK refuses, SANITIZE rewrites the PII inside the original JSON at the mapped pointers,
// monitor mode forwards the request unchanged.
import { performance } from 'node:perf_hooks';
import { inSpan, isSampled, PalisadeError, replaceAllAt, type TraceContext, type Tracer, type Profile, type RequestExtraction, type TextPart } from '@palisade/core';
import { applyPiiAction, type PiiSpan } from '@palisade/detectors';
import type { GatewaySnapshot } from '../config/snapshot.js';
import { decideFailSafe, type DecisionPiiEntity, type DetectorOutcome, type RequestDecisionResult } from '../decision/index.js';
import { buildSecurityEvents, type EventEmitter, type SecurityEventContext } from '../events/index.js';
import type { Normalized } from '../normalizer/index.js';
import type { InspectionDetectors } from './detectors.js';
import { clipForGuard } from './guard-text.js';
import { checkDetectorLimits, checkPromptSize, isSizeRefusal } from './inspection-limits.js';
import { profilePolicies } from './profile-policies.js';
import { Pseudonyms, replaceSpans, type Replacement } from './pseudonyms.js';
import { observeOutcomes, type InspectionTimings } from './inspection-timings.js';
import { runDetector } from './run-detector.js';
import { formatInspectionHeader, INSPECTION_HEADER, inspectionChecks } from './proof-of-inspection.js';
import { joinParts, type JoinedParts } from './text-parts.js';
import type { TurnSlicer } from '../scheduling/turn-slicer.js';

export interface RequestInspection {
  result: RequestDecisionResult;
  /** What goes upstream: the original bytes, or the body with its PII rewritten. */
  body: Buffer;
  /** From the start of inspection to the decision acted on. */
  processingMs: number;
  /** X-Service-Inspection, when the profile's event_logging.inspection_header asks for it. */
  inspectionHeader?: string;
  /** PII mode pseudonymize: the placeholders sent upstream and their values, restored in the answer. */
  pseudonyms?: Pseudonyms;
}

export interface InspectRequest {
  profile: Profile;
  snapshot: Pick<GatewaySnapshot, 'revision' | 'contentPolicy'>;
  json: unknown;
  raw: Buffer;
  extraction: RequestExtraction;
  traceId: string;
  tenantId: string;
  /** Who asked and where it went, for the security events of this request. */
  context: Omit<SecurityEventContext, 'trace_id' | 'tenant_id' | 'latency_ms'>;
  /** With traces on: the request's span context, parent of the inspection spans. */
  traceContext?: TraceContext | undefined;
}

/** X-Service-Decision: the effective decision in lower case (spec example: `allow`). */
export const decisionHeader = (decision: string) => decision.toLowerCase();

const skipped = (reason: string): DetectorOutcome<never> => ({ status: 'skipped', reason });

/**
 * Entities found in the normalized text → spans of each original part. A span that crosses the
 * separator between two parts is cut at the part boundaries, so no piece of the value goes upstream.
 */
/** The part's values replaced by their numbered placeholders (spans sorted, overlaps dropped as applyPiiAction does). */
function pseudonymize(text: string, spans: readonly PiiSpan[], pseudonyms: Pseudonyms): string {
  const kept: Replacement[] = [];
  for (const span of [...spans].sort((a, b) => a.start - b.start || b.end - a.end)) {
    if (span.trusted || span.end <= span.start || (kept.length > 0 && span.start < kept[kept.length - 1]!.end)) continue;
    kept.push({ start: span.start, end: span.end, replacement: pseudonyms.placeholderFor(span.type, text.slice(span.start, span.end)) });
  }
  return replaceSpans(text, kept);
}

function maskValues(text: string, entities: readonly DecisionPiiEntity[]): string {
  let out = text;
  for (const e of entities) if (e.value) out = out.split(e.value).join(e.masked);
  return out;
}

function maskedEventValues<E extends { pii_entities?: readonly DecisionPiiEntity[] | undefined }>(event: E): E {
  return event.pii_entities ? { ...event, pii_entities: event.pii_entities.map((e) => ({ ...e, value: e.masked })) } : event;
}

function spansByPart(entities: readonly DecisionPiiEntity[], normalized: Normalized, joined: JoinedParts, parts: readonly TextPart[]): Map<number, PiiSpan[]> {
  const byPart = new Map<number, PiiSpan[]>();
  for (const entity of entities) {
    const original = normalized.toOriginal(entity.start, entity.end);
    for (let i = 0; i < parts.length; i++) {
      const partStart = joined.starts[i]!;
      const partEnd = partStart + parts[i]!.text.length;
      const start = Math.max(original.start, partStart);
      const end = Math.min(original.end, partEnd);
      if (start >= end) continue;
      const list = byPart.get(i) ?? [];
      list.push({ type: entity.type, start: start - partStart, end: end - partStart });
      byPart.set(i, list);
    }
  }
  return byPart;
}

export interface InspectorOptions {
  /** Where the decision's security events go (appended to the event stream off the request path). */
  events?: Pick<EventEmitter, 'emitLater'> | undefined;
  /** Per-stage time (normalize, each detector, decision, total). */
  timings?: InspectionTimings | undefined;
  /** Spreads the CPU stages of many requests over several loop turns under load. */
  slicer?: TurnSlicer | undefined;
  /** With traces on: spans for normalization, each detector, the decision and the event emission. */
  tracer?: Tracer | undefined;
}

/**
 * The event building, run later off the request path, as a span `security_events.emit` of the
 * request's trace (the context is captured now: it runs after the answer went).
 */
export function traceEmission<T>(tracer: Tracer | undefined, parent: TraceContext | undefined, build: () => T): () => T {
  if (!tracer || !isSampled(parent)) return build;
  return () => {
    const span = tracer.startSpan('security_events.emit', {}, parent);
    try {
      return build();
    } finally {
      span.end();
    }
  };
}

export function createRequestInspector(detectors: InspectionDetectors, options: InspectorOptions = {}) {
  const { slicer, timings } = options;
  const observeWait = timings ? (ms: number) => timings.observe('request', 'turn_wait', ms) : undefined;
  return async function inspect(request: InspectRequest): Promise<RequestInspection> {
    const started = performance.now();
    const waitToStart = slicer?.turn(observeWait);
    if (waitToStart) await waitToStart;
    const { profile, extraction } = request;
    const parts = extraction.prompt_parts;
    const joined = joinParts(parts);
    checkPromptSize(profile, joined.text.length);
    const normalizing = performance.now();
    const normalized = await inSpan(options.tracer, request.traceContext, 'gateway.normalize', () => detectors.normalizer.normalize({ text: joined.text, profile: { translation: profile.translation } }));
    if (timings) timings.observe('request', 'normalize', performance.now() - normalizing);
    const forThreat = normalized.translated ?? normalized.normalized;
    const policies = profilePolicies(profile, request.snapshot, 'request');
    checkDetectorLimits(profile, normalized.normalized, forThreat, policies.length > 0);
    const timeoutMs = profile.detector_timeout_ms;
    const call = { traceId: request.traceId };
    const sizeRefusals = { rethrow: isSizeRefusal };

    const safety = profile.content_safety;
    const [threat, pii, contentPolicy, contentSafety] = await Promise.all([
      !profile.threat_detection.enabled
        ? skipped('threat detection is off in the profile')
        : detectors.threat
          ? runDetector(
              (signal, traceContext) =>
                detectors.threat!.detect(
                  {
                    trace_context: { trace_id: request.traceId, span_id: 'threat' },
                    tenant_id: request.tenantId,
                    canonical: { user_prompt: forThreat, language: normalized.language ?? 'auto' },
                  },
                  { ...call, signal, traceContext },
                ),
              timeoutMs,
              { ...sizeRefusals, tracer: options.tracer, parent: request.traceContext, detector: 'threat' },
            )
          : ({ status: 'error', latency_ms: 0, error: 'no threat detector is configured' } as const),
      !profile.pii.enabled
        ? skipped('PII detection is off in the profile')
        : runDetector(
            (signal, traceContext) => detectors.pii.detect({ text: normalized.normalized, language: normalized.language, types: profile.pii.types, direction: 'input' }, { ...call, signal, traceContext }),
            timeoutMs,
            { ...sizeRefusals, tracer: options.tracer, parent: request.traceContext, detector: 'pii' },
          ),
      policies.length === 0
        ? skipped('no active content policy in the profile')
        : runDetector(
            (signal, traceContext) =>
              detectors.contentPolicy.detect(
                { text: normalized.normalized, scope: 'input', language: normalized.language, revision: request.snapshot.revision, policies },
                { ...call, signal, traceContext },
              ),
            timeoutMs,
            { ...sizeRefusals, tracer: options.tracer, parent: request.traceContext, detector: 'content_policy' },
          ),
      !safety.enabled
        ? skipped('content safety is off in the profile')
        : normalized.normalized.trim() === ''
          ? skipped('no prompt text to check')
          : runDetector(
              (signal, traceContext) =>
                detectors.contentSafety.detect(
                  { text: clipForGuard(normalized.normalized), blocked_categories: safety.blocked_categories, role: 'prompt' },
                  { ...call, signal, traceContext },
                ),
              timeoutMs,
              { ...sizeRefusals, tracer: options.tracer, parent: request.traceContext, detector: 'content_safety' },
            ),
    ]);

    const waitToDecide = slicer?.turn(observeWait);
    if (waitToDecide) await waitToDecide;
    const input = { profile, direction: 'request' as const, threat, pii, content_policy: contentPolicy, content_safety: contentSafety };
    const deciding = timings ? performance.now() : 0;
    let result: RequestDecisionResult;
    try {
      result = await inSpan(options.tracer, request.traceContext, 'gateway.decision', (traceContext) => detectors.decisionPoint.decide(input as never, { ...call, traceContext }), {
        attributes: { 'palisade.side': 'request' },
      });
    } catch (error) {
      result = decideFailSafe(profile, `decision point unavailable: ${error instanceof Error ? error.message : String(error)}`) as RequestDecisionResult;
    }
    if (timings) {
      timings.observe('request', 'decision', performance.now() - deciding);
      observeOutcomes(timings, 'request', { threat, pii, content_policy: contentPolicy, content_safety: contentSafety });
    }

    let body = request.raw;
    let pseudonyms: Pseudonyms | undefined;
    if (result.effective === 'SANITIZE' && result.sanitize && result.sanitize.entities.length > 0) {
      // Mask mode writes the spec's mask table values (i***@example.com); redact removes the value.
      const mode = result.sanitize.mode === 'redact' ? 'redact' : 'partial';
      if (result.sanitize.mode === 'pseudonymize') pseudonyms = new Pseudonyms();
      const replacements: TextPart[] = [];
      for (const [index, spans] of spansByPart(result.sanitize.entities, normalized, joined, parts)) {
        const part = parts[index]!;
        replacements.push({ pointer: part.pointer, text: pseudonyms ? pseudonymize(part.text, spans, pseudonyms) : applyPiiAction(part.text, spans, mode) });
      }
      body = Buffer.from(JSON.stringify(replaceAllAt(request.json, replacements)), 'utf8');
    }
    const processingMs = Math.round((performance.now() - started) * 1000) / 1000;
    if (timings) {
      timings.observe('request', 'total', processingMs);
      timings.decided('request', result.effective, result.events.some((e) => e.event_type === 'FAIL_SAFE_TRIGGERED'));
    }
    if (options.events && result.events.length > 0) {
      const now = new Date();
      const context: SecurityEventContext = { ...request.context, trace_id: request.traceId, tenant_id: request.tenantId, latency_ms: processingMs };
      // Pseudonymised values stay in the request's memory: its events carry the masked forms only.
      const drafts = pseudonyms ? result.events.map(maskedEventValues) : result.events;
      if (pseudonyms && context.user_prompt) context.user_prompt = maskValues(context.user_prompt, result.pii_entities);
      // The records (and their proof of inspection) are built and validated off the request path: the
      // request pays for a closure.
      options.events.emitLater(
        traceEmission(options.tracer, request.traceContext, () => buildSecurityEvents(drafts, { ...context, inspection: inspectionChecks('request', input, profile) }, { profile, now })),
      );
    }
    const inspectionHeader = profile.event_logging.inspection_header ? formatInspectionHeader(inspectionChecks('request', input, profile)) : undefined;
    if (result.effective === 'BLOCK' && result.block) {
      throw new PalisadeError(result.block.code, {
        status: result.block.status,
        ...(result.block.details ? { details: result.block.details } : {}),
        headers: {
          'x-service-decision': decisionHeader(result.effective),
          'x-service-processing-ms': String(processingMs),
          ...(inspectionHeader !== undefined ? { [INSPECTION_HEADER]: inspectionHeader } : {}),
        },
      });
    }
    return { result, body, processingMs, ...(inspectionHeader !== undefined ? { inspectionHeader } : {}), ...(pseudonyms ? { pseudonyms } : {}) };
  };
}
export type RequestInspector = ReturnType<typeof createRequestInspector>;
