// Steps 3-5 of the spec's per-request pipeline for a routed call with an ACTIVE profile, in order:
// normalize the mapped prompt, run the detectors (detect.ts), ask the decision point, and act — BLOCK
// refuses, SANITIZE rewrites the PII in the body (sanitize.ts), monitor mode forwards it unchanged —
// then record the decision's events off the request path.
import { performance } from 'node:perf_hooks';
import { inSpan, isSampled, PalisadeError, type TraceContext, type Tracer, type Profile, type RequestExtraction } from '@palisade/core';
import type { GatewaySnapshot } from '../config/snapshot.js';
import type { Normalized, StagedNormalization } from '../normalizer/index.js';
import { decideFailSafe, type DecisionPiiEntity, type RequestDecisionResult } from '../decision/index.js';
import { buildSecurityEvents, sideEventContext, type CallEventContext, type EventEmitter } from '../events/index.js';
import type { InspectionDetectors } from './detectors.js';
import { checkDetectorLimits, checkPromptSize, checkThreatLimit } from './inspection-limits.js';
import { profilePolicies } from './profile-policies.js';
import type { Pseudonyms } from './pseudonyms.js';
import { observeOutcomes, type InspectionTimings } from './inspection-timings.js';
import { detectRequest } from './detect.js';
import { sanitizeRequest } from './sanitize.js';
import { formatInspectionHeader, INSPECTION_HEADER, inspectionChecks } from './proof-of-inspection.js';
import { joinParts } from './text-parts.js';
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
  context: CallEventContext;
  /** With traces on: the request's span context, parent of the inspection spans. */
  traceContext?: TraceContext | undefined;
}

/** X-Service-Decision: the effective decision in lower case (spec example: `allow`). */
export const decisionHeader = (decision: string) => decision.toLowerCase();


function maskedEventValues<E extends { pii_entities?: readonly DecisionPiiEntity[] | undefined }>(event: E): E {
  return event.pii_entities ? { ...event, pii_entities: event.pii_entities.map((e) => ({ ...e, value: e.masked })) } : event;
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
    const joined = joinParts(extraction.prompt_parts);
    checkPromptSize(profile, joined.text.length);
    const normalizing = performance.now();
    // The translation call under it carries the span's traceparent, as every detector call does.
    let staged: StagedNormalization | undefined;
    const normalizingDone = inSpan(options.tracer, request.traceContext, 'gateway.normalize', (traceContext) => {
      staged = detectors.normalizer.normalizeInStages({ text: joined.text, profile: { translation: profile.translation } }, { traceId: request.traceId, traceContext });
      return Promise.resolve(staged.complete);
    });
    if (!staged) await normalizingDone; // it threw before any translation call: rethrown here
    const { local: normalized, complete } = staged!;
    const policies = profilePolicies(profile, request.snapshot, 'request');
    // The threat model reads the translation when one is made: known now without a translation call;
    // with one, only the threat model waits for it, and its size limit is checked when it is in.
    const threatTextOf = (n: Normalized): string => {
      if (timings) timings.observe('request', 'normalize', performance.now() - normalizing);
      const text = n.translated ?? n.normalized;
      checkThreatLimit(profile, text);
      return text;
    };
    const forThreat = complete instanceof Promise ? normalizingDone.then(threatTextOf) : threatTextOf(complete);
    checkDetectorLimits(profile, normalized.normalized, policies.length > 0);
    // The translation beside the detectors: its size refusal holds even when no threat detector runs.
    const [{ threat, pii, contentPolicy, contentSafety }] = await Promise.all([detectRequest(detectors, request, normalized, forThreat, policies, options.tracer), forThreat]);

    const waitToDecide = slicer?.turn(observeWait);
    if (waitToDecide) await waitToDecide;
    const input = { profile, direction: 'request' as const, threat, pii, content_policy: contentPolicy, content_safety: contentSafety };
    const deciding = timings ? performance.now() : 0;
    let result: RequestDecisionResult;
    try {
      result = await inSpan(options.tracer, request.traceContext, 'gateway.decision', (traceContext) => detectors.decisionPoint.decide(input, { traceId: request.traceId, traceContext }), {
        attributes: { 'palisade.side': 'request' },
      });
    } catch (error) {
      result = decideFailSafe(profile, `decision point unavailable: ${error instanceof Error ? error.message : String(error)}`) as RequestDecisionResult;
    }
    if (timings) {
      timings.observe('request', 'decision', performance.now() - deciding);
      observeOutcomes(timings, 'request', { threat, pii, content_policy: contentPolicy, content_safety: contentSafety });
    }

    const { body, pseudonyms } = sanitizeRequest(result, request, normalized, joined);
    // Pseudonymised values stay in the request's memory: no event of the call stores them.
    if (pseudonyms) request.context.user_prompt?.maskAlso(profile.pii.types);
    const processingMs = Math.round((performance.now() - started) * 1000) / 1000;
    if (timings) {
      timings.observe('request', 'total', processingMs);
      timings.decided('request', result.effective, result.events.some((e) => e.event_type === 'FAIL_SAFE_TRIGGERED'));
    }
    if (options.events && result.events.length > 0) {
      const now = new Date();
      // The findings of pseudonymised values are stored in their masked forms only.
      const drafts = pseudonyms ? result.events.map(maskedEventValues) : result.events;
      // The records (and their proof of inspection) are built off the request path: the request pays
      // for a closure.
      options.events.emitLater(
        traceEmission(options.tracer, request.traceContext, () => buildSecurityEvents(drafts, sideEventContext(request, processingMs, inspectionChecks('request', input, profile)), { profile, now })),
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
