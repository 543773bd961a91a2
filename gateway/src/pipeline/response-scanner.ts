// Step 7 of the spec's pipeline: the LLM's answer, buffered whole (a stream read to its end marker),
// scanned for output PII and the profile's response-scope content policies, and then passed, redacted
// at the response path, or blocked (RESPONSE_BLOCKED, block_status_code, reasons).
import { performance } from 'node:perf_hooks';
import {
  inSpan,
  PalisadeError,
  replaceAllAt,
  type CompiledMapping,
  type JsonPointer,
  type Profile,
  type TextPart,
  type ToolArgumentsEncoding,
  type ToolArgumentsMatch,
  type TraceContext,
  type Tracer,
} from '@palisade/core';
import { applyPiiAction, type PiiSpan } from '@palisade/detectors';
import type { GatewaySnapshot } from '../config/snapshot.js';
import { decideFailSafe, type DecisionInput, type DetectorOutcome, type ResponseDecisionResult } from '../decision/index.js';
import { buildSecurityEvents, sideEventContext, type CallEventContext, type EventEmitter } from '../events/index.js';
import type { UpstreamResponse } from '../upstream/index.js';
import type { InspectionDetectors } from './detectors.js';
import { clipForGuard, contentSafetyOnResponses } from './guard-text.js';
import { profilePolicies } from './profile-policies.js';
import { observeOutcomes, type InspectionTimings } from './inspection-timings.js';
import { runDetector, withDetectorDeadline } from './run-detector.js';
import { skipped } from './detect.js';
import { traceEmission } from './request-inspector.js';
import { formatInspectionHeader, inspectionChecks } from './proof-of-inspection.js';
import { joinParts, PART_SEPARATOR } from './text-parts.js';
import { decodeJsonEscapes, rewriteJsonText, type DecodedJson } from './json-text.js';
import { maskedSpans } from '../streaming/holdback.js';
import type { TurnSlicer } from '../scheduling/turn-slicer.js';

export interface ResponseScan {
  result: ResponseDecisionResult;
  /** The answer to send: the upstream body, or the body with the PII rewritten. */
  body: Buffer;
  processingMs: number;
  /** The response side's part of X-Service-Inspection, when the profile asks for it. */
  inspectionHeader?: string;
}

export interface ScanResponse {
  profile: Profile;
  snapshot: Pick<GatewaySnapshot, 'revision' | 'contentPolicy'>;
  mapping: CompiledMapping;
  answer: UpstreamResponse;
  /** The request's system prompt: an answer repeating it is a SYSTEM_PROMPT_LEAK. */
  systemPrompt: string;
  traceId: string;
  tenantId: string;
  context: CallEventContext;
  /** With traces on: the response scan's span context, parent of its detector spans. */
  traceContext?: TraceContext | undefined;
}


/** One tool call's arguments in a buffered answer, as the JSON text the checks read. */
interface ToolText {
  pointer: JsonPointer;
  encoding: ToolArgumentsEncoding;
  raw: string;
  /** False for arguments that are not JSON (a model's broken text): read and rewritten as plain text. */
  json: boolean;
  decoded: DecodedJson;
}

function toolText(match: ToolArgumentsMatch): ToolText {
  // A tool's name is plain text, read and rewritten as such.
  if (match.encoding === 'name' && typeof match.value === 'string') return { pointer: match.pointer, encoding: 'name', raw: match.value, json: false, decoded: { text: match.value } };
  // Arguments that are not the text the path expects are still read, and written back, as a JSON value.
  const encoding = match.encoding !== 'object' && typeof match.value !== 'string' ? 'object' : match.encoding;
  const raw = encoding === 'object' ? JSON.stringify(match.value) : (match.value as string);
  let json = true;
  try {
    JSON.parse(raw);
  } catch {
    json = false;
  }
  return { pointer: match.pointer, encoding, raw, json, decoded: json ? decodeJsonEscapes(raw) : { text: raw } };
}

interface AnswerText {
  text: string;
  /** The answer's text parts, then its tool calls' arguments (decoded), as the checks read them joined. */
  parts: TextPart[] | null;
  tools: ToolText[];
  json: unknown;
}

/** A stream's text assembled from its deltas, then its tool calls' arguments (decoded) and names: no pointers, its values are rewritten in the raw body. */
function streamText(answer: UpstreamResponse, json: unknown): AnswerText {
  const tools = [...(answer.assembledToolArguments ?? []).map((args) => decodeJsonEscapes(args).text), ...(answer.assembledToolNames ?? [])];
  const text = tools.length === 0 ? (answer.assembled ?? '') : [answer.assembled ?? '', ...tools].join(PART_SEPARATOR);
  return { text, parts: null, tools: [], json };
}

/** The answer's text (and its tool calls' arguments) with the JSON pointers to rewrite; a stream has text only (assembled from deltas). */
function answerText(answer: UpstreamResponse, mapping: CompiledMapping): AnswerText {
  if (answer.isEventStream) return streamText(answer, undefined);
  if (answer.text === undefined) return { text: '', parts: null, tools: [], json: undefined };
  let json: unknown;
  try {
    json = JSON.parse(answer.text);
  } catch {
    // Not JSON (plain text answer): the whole body is the text.
    return { text: answer.text, parts: null, tools: [], json: undefined };
  }
  if (answer.assembled !== undefined || answer.assembledToolArguments !== undefined || answer.assembledToolNames !== undefined) return streamText(answer, json);
  const extracted = mapping.extractResponse(json);
  // Tool calls carry data as well as the text does: their arguments are read after the text parts.
  const tools = mapping.extractToolArguments(json).map(toolText);
  if (tools.length === 0) return { text: extracted.text, parts: extracted.parts, tools, json };
  const parts = [...extracted.parts, ...tools.map((tool) => ({ pointer: tool.pointer, text: tool.decoded.text }))];
  return { text: joinParts(parts).text, parts, tools, json };
}

/** A tool call's arguments with the findings rewritten (JSON kept valid), or null when they cannot be. */
function redactTool(tool: ToolText, spans: readonly PiiSpan[]): unknown {
  if (!tool.json) return tool.encoding === 'object' ? null : applyPiiAction(tool.decoded.text, spans, 'partial');
  // The spans as applyPiiAction keeps them (sorted, no overlaps).
  const kept: PiiSpan[] = [];
  for (const span of [...spans].filter((e) => e.end > e.start).sort((a, b) => a.start - b.start || b.end - a.end)) {
    if (kept.length === 0 || span.start >= kept[kept.length - 1]!.end) kept.push(span);
  }
  const rewritten = rewriteJsonText(tool.raw, tool.decoded, maskedSpans(tool.decoded.text, kept));
  if (rewritten === null) return null;
  return tool.encoding === 'json_text' ? rewritten : (JSON.parse(rewritten) as unknown);
}

/**
 * The redacted body, or null when the PII cannot be rewritten in place: in a stream a value may be
 * split across frames, so each value is replaced where it appears whole in the raw body, and a value
 * that does not appear whole makes the answer unsafe to pass (the caller blocks it); in a tool call's
 * arguments a value outside a JSON string cannot be rewritten either.
 */
function redact(answer: UpstreamResponse, scanned: AnswerText, entities: readonly PiiSpan[]): Buffer | null {
  if (scanned.parts && scanned.json !== undefined) {
    const joined = joinParts(scanned.parts);
    const firstTool = scanned.parts.length - scanned.tools.length;
    const replacements: Array<{ pointer: JsonPointer; text: unknown }> = [];
    for (const [i, part] of scanned.parts.entries()) {
      const start = joined.starts[i]!;
      const end = start + part.text.length;
      const spans = entities
        .filter((e) => e.start < end && e.end > start)
        .map((e) => ({ type: e.type, start: Math.max(e.start, start) - start, end: Math.min(e.end, end) - start }));
      if (spans.length === 0) continue;
      if (i < firstTool) {
        replacements.push({ pointer: part.pointer, text: applyPiiAction(part.text, spans, 'partial') });
        continue;
      }
      const value = redactTool(scanned.tools[i - firstTool]!, spans);
      if (value === null) return null;
      replacements.push({ pointer: part.pointer, text: value });
    }
    return Buffer.from(JSON.stringify(replaceAllAt(scanned.json, replacements)), 'utf8');
  }
  let raw = answer.body.toString('utf8');
  for (const entity of entities) {
    const value = scanned.text.slice(entity.start, entity.end);
    if (!raw.includes(value)) return null;
    raw = raw.split(value).join(applyPiiAction(value, [{ type: entity.type, start: 0, end: value.length }], 'partial'));
  }
  return Buffer.from(raw, 'utf8');
}

export interface ScannerOptions {
  events?: Pick<EventEmitter, 'emitLater'> | undefined;
  timings?: InspectionTimings | undefined;
  /** Spreads the CPU stages of many requests over several loop turns under load. */
  slicer?: TurnSlicer | undefined;
  /** With traces on: spans for each detector, the decision and the event emission. */
  tracer?: Tracer | undefined;
}

type AnswerOutcomes = { pii: DetectorOutcome<unknown>; content_policy: DetectorOutcome<unknown>; content_safety: DetectorOutcome<unknown> };

/** Runs the response side's detectors on the answer text in parallel; those the profile turns off are skipped. */
async function detectInAnswer(detectors: InspectionDetectors, request: ScanResponse, text: string, tracer: Tracer | undefined) {
  const { profile } = request;
  const settings = profile.response_scanning;
  const timeoutMs = profile.detector_timeout_ms;
  const span = (detector: string) => ({ tracer, parent: request.traceContext, detector });
  const policies = profilePolicies(profile, request.snapshot, 'response');
  const guardResponses = contentSafetyOnResponses(profile);
  const [pii, contentPolicy, contentSafety] = await withDetectorDeadline(timeoutMs, (deadline) =>
    Promise.all([
      settings.pii_mode === 'disabled'
        ? skipped('response PII scanning is disabled')
        : runDetector(
            (signal, traceContext) =>
              detectors.pii.detect(
                { text, direction: 'output', system_prompt: request.systemPrompt, ...(settings.pii_types.length ? { types: settings.pii_types } : {}) },
                { traceId: request.traceId, signal, traceContext },
              ),
            deadline,
            span('pii'),
          ),
      policies.length === 0
        ? skipped('no active response content policy in the profile')
        : runDetector(
            (signal, traceContext) => detectors.contentPolicy.detect({ text, scope: 'output', revision: request.snapshot.revision, policies }, { traceId: request.traceId, signal, traceContext }),
            deadline,
            span('content_policy'),
          ),
      !guardResponses
        ? skipped('content safety on responses is off in the profile')
        : text.trim() === ''
          ? skipped('no answer text to check')
          : runDetector(
              (signal, traceContext) =>
                detectors.contentSafety.detect(
                  {
                    text: clipForGuard(text),
                    blocked_categories: guardResponses.blockedCategories,
                    role: 'response',
                    ...(request.context.user_prompt?.text ? { prompt: clipForGuard(request.context.user_prompt.text) } : {}),
                  },
                  { traceId: request.traceId, signal, traceContext },
                ),
              deadline,
              span('content_safety'),
            ),
    ]),
  );
  return { pii, content_policy: contentPolicy, content_safety: contentSafety };
}

/** The decision point's verdict on the answer, or the profile's fail-safe when it cannot answer. */
async function decideOnAnswer(detectors: InspectionDetectors, request: ScanResponse, outcomes: AnswerOutcomes, tracer: Tracer | undefined): Promise<ResponseDecisionResult> {
  const { profile } = request;
  try {
    // The detector answers are wider than the decision input's view of them (extra fields).
    const input = { profile, direction: 'response' as const, ...outcomes } as unknown as DecisionInput & { direction: 'response' };
    return await inSpan(tracer, request.traceContext, 'gateway.decision', (traceContext) => detectors.decisionPoint.decide(input, { traceId: request.traceId, traceContext }), {
      attributes: { 'palisade.side': 'response' },
    });
  } catch (error) {
    return decideFailSafe(profile, `decision point unavailable: ${error instanceof Error ? error.message : String(error)}`, 'response') as unknown as ResponseDecisionResult;
  }
}

export function createResponseScanner(detectors: InspectionDetectors, options: ScannerOptions = {}) {
  const { slicer, timings, tracer } = options;
  const observeWait = timings ? (ms: number) => timings.observe('response', 'turn_wait', ms) : undefined;

  const emitEvents = (request: ScanResponse, result: ResponseDecisionResult, outcomes: AnswerOutcomes, unredactable: boolean, processingMs: number): void => {
    if (!options.events || result.events.length === 0) return;
    const now = new Date();
    const drafts = unredactable ? [...result.events, { event_type: 'RESPONSE_BLOCKED' as const, reasons: ['the answer could not be redacted safely'] }] : result.events;
    const { profile } = request;
    options.events.emitLater(
      traceEmission(tracer, request.traceContext, () => buildSecurityEvents(drafts, sideEventContext(request, processingMs, inspectionChecks('response', outcomes, profile)), { profile, now })),
    );
  };

  return async function scan(request: ScanResponse): Promise<ResponseScan | null> {
    const { profile } = request;
    if (!profile.response_scanning.enabled) return null;
    const started = performance.now();
    const wait = slicer?.turn(observeWait);
    if (wait) await wait;
    const scanned = answerText(request.answer, request.mapping);
    const outcomes = await detectInAnswer(detectors, request, scanned.text, tracer);

    const deciding = timings ? performance.now() : 0;
    const result = await decideOnAnswer(detectors, request, outcomes, tracer);
    if (timings) {
      timings.observe('response', 'decision', performance.now() - deciding);
      observeOutcomes(timings, 'response', outcomes);
    }
    let body = request.answer.body;
    let effective = result.effective;
    if (effective === 'REDACT' && result.sanitize) {
      const redacted = redact(request.answer, scanned, result.sanitize.entities);
      if (redacted) body = redacted;
      else effective = 'BLOCK';
    }
    const processingMs = Math.round((performance.now() - started) * 1000) / 1000;
    if (timings) {
      timings.observe('response', 'total', processingMs);
      timings.decided('response', effective, result.events.some((e) => e.event_type === 'FAIL_SAFE_TRIGGERED'));
    }
    emitEvents(request, result, outcomes, effective !== result.effective, processingMs);
    if (effective === 'BLOCK') {
      throw new PalisadeError('RESPONSE_BLOCKED', {
        status: result.block?.status ?? profile.block_status_code,
        reasons: result.reasons.length ? result.reasons : ['the answer could not be redacted safely'],
      });
    }
    const inspectionHeader = profile.event_logging.inspection_header ? formatInspectionHeader(inspectionChecks('response', outcomes, profile)) : undefined;
    return { result, body, processingMs, ...(inspectionHeader !== undefined ? { inspectionHeader } : {}) };
  };
}
export type ResponseScanner = ReturnType<typeof createResponseScanner>;
