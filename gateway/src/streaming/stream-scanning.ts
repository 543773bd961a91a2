// The proxy's side of incremental response scanning: decides whether a call's answer streams to the
// client (a profiled `stream: true` call in a vendor format we read, whose profile allows it), and
// wires the upstream's stream tap to a StreamGuard writing the client's response.
import type { FastifyReply } from 'fastify';
import { isPalisadeError, PalisadeError, type Profile } from '@palisade/core';
import type { GatewaySnapshot } from '../config/snapshot.js';
import { buildSecurityEvents, type EventEmitter, type SecurityEventContext, type SecurityEventPart } from '../events/index.js';
import type { InspectionDetectors } from '../pipeline/detectors.js';
import type { Pseudonyms } from '../pipeline/pseudonyms.js';
import { profilePolicies } from '../pipeline/profile-policies.js';
import { inspectionChecks, type InspectionOutcomes } from '../pipeline/proof-of-inspection.js';
import type { StreamFormat, StreamHead, UpstreamRequest } from '../upstream/index.js';
import { asksForStream, codecForUrl, formatOf } from './codecs.js';
import { bufferingReason, holdbackChars, tailNeed, WINDOW_CONTEXT_CHARS } from './holdback-size.js';
import { createRulePrefixCache, type RulePrefixCompiler } from './rule-prefixes-compiler.js';
import { StreamGuard, type Refusal } from './stream-guard.js';
import { createWindowCheck, withRestoration } from './window-check.js';

export interface StreamCall {
  profile: Profile;
  snapshot: Pick<GatewaySnapshot, 'revision' | 'contentPolicy'>;
  upstreamUrl: string;
  /** The parsed request body: only calls asking for a stream (`stream: true`, or the codec's flag) stream. */
  json: unknown;
  systemPrompt: string;
  traceId: string;
  tenantId: string;
  context: Omit<SecurityEventContext, 'trace_id' | 'tenant_id' | 'latency_ms'>;
  reply: FastifyReply;
  /** The request's pseudonymised values: their placeholders in the answer are restored. */
  pseudonyms?: Pseudonyms | undefined;
}

/** One call's incremental stream, once planned. */
export interface PlannedStream {
  /** The format the stream's codec reads (the upstream call expects it). */
  readonly format: StreamFormat;
  onStreamStart: NonNullable<UpstreamRequest['onStreamStart']>;
  /** Wraps the proxy's abort hook: a refused stream also stops the upstream call. */
  abortWith(inner: NonNullable<UpstreamRequest['abortWith']>): NonNullable<UpstreamRequest['abortWith']>;
  /** The client's response has started: the rest of the call belongs to the stream. */
  readonly started: boolean;
  /** The upstream call ended (resolved): flush and end. */
  finished(): Promise<void>;
  /** The upstream call failed after the stream started: the vendor's error event and end marker. */
  failed(error: unknown): Promise<void>;
}

export interface StreamScanningOptions {
  events?: Pick<EventEmitter, 'emitLater'> | undefined;
  /** Builds the blocklist rules' prefix automaton (default: on a worker thread). */
  compileRulePrefixes?: RulePrefixCompiler | undefined;
}

export function createStreamScanning(detectors: Pick<InspectionDetectors, 'pii' | 'contentPolicy' | 'decisionPoint'>, options: StreamScanningOptions = {}) {
  const emit = (call: StreamCall, drafts: Parameters<typeof buildSecurityEvents>[0], outcomes: InspectionOutcomes | undefined) => {
    if (!options.events || drafts.length === 0) return;
    const context: SecurityEventContext = { ...call.context, trace_id: call.traceId, tenant_id: call.tenantId, ...(outcomes ? { inspection: inspectionChecks('response', outcomes, call.profile) } : {}) };
    options.events.emitLater(() => buildSecurityEvents(drafts, context, { profile: call.profile, now: new Date() }));
  };

  const rulePrefixesFor = createRulePrefixCache(options.compileRulePrefixes);

  return function plan(call: StreamCall): PlannedStream | null {
    const codec = codecForUrl(call.upstreamUrl);
    if (!codec || !asksForStream(codec, call.json)) return null;
    const settings = call.profile.response_scanning;
    const policies = settings.enabled ? profilePolicies(call.profile, call.snapshot, 'response') : [];
    if (bufferingReason(call.profile, policies) !== null) return null;
    const checking = settings.enabled && (settings.pii_mode !== 'disabled' || policies.some((p) => p.type === 'blocklist'));
    const restoring = call.pseudonyms && call.pseudonyms.size > 0 ? call.pseudonyms : undefined;
    const checks = checking ? createWindowCheck(detectors, call) : undefined;
    const check = restoring ? withRestoration(checks, restoring) : checks;
    const holdback = Math.max(checking ? holdbackChars(call.profile, policies, call.systemPrompt) : 0, restoring?.longest ?? 0);
    // A profile's fixed hold-back replaces the rules' automaton: none is built for it.
    const rules = checking && settings.stream_holdback_chars === null ? rulePrefixesFor(policies).rules : undefined;
    const checksNeed = checking ? tailNeed(call.profile, policies, call.systemPrompt, rules) : undefined;
    const longest = restoring?.longest ?? 0;
    // A placeholder in progress: from its `[` on, while it can still be one.
    const placeholderNeed = (window: string) => {
      const open = window.lastIndexOf('[');
      return open >= 0 && window.length - open < longest ? window.length - open : 0;
    };
    const need = restoring ? (window: string) => Math.max(checksNeed?.(window) ?? 0, placeholderNeed(window)) : checksNeed;
    let guard: StreamGuard | undefined;
    let abortUpstream: ((reason: Error) => void) | undefined;
    const reply = call.reply;

    const onRefuse = (refusal: Refusal) => {
      const verdict = refusal.kind === 'verdict' ? refusal.verdict.result : undefined;
      const reasons = verdict?.reasons.length ? verdict.reasons : [refusal.kind === 'unscannable' ? refusal.reason : 'the answer was blocked'];
      const drafts: SecurityEventPart[] = verdict ? [...verdict.events] : [];
      if (!drafts.some((e) => e.event_type === 'RESPONSE_BLOCKED')) drafts.push({ event_type: 'RESPONSE_BLOCKED', reasons });
      emit(call, drafts, refusal.kind === 'verdict' ? refusal.verdict.outcomes : undefined);
      reply.log.info({ trace_id: call.traceId, reasons }, 'stream blocked mid-way');
      abortUpstream?.(new Error('the stream was blocked'));
      const blocked = new PalisadeError('RESPONSE_BLOCKED', { reasons });
      return { message: `${blocked.message}: ${reasons.join('; ')}`, code: blocked.code, type: blocked.type, traceId: call.traceId };
    };
    const onComplete = (texts: ReadonlyMap<string, string>, findings: boolean) => {
      // Windows overlap, so their events would repeat: the events of the whole answer are recorded once.
      if (!findings || !checks) return;
      void (async () => {
        for (const text of texts.values()) {
          const verdict = await checks(text);
          emit(call, verdict.result?.events ?? [], verdict.outcomes);
        }
      })().catch((error: unknown) => reply.log.warn({ err: error, trace_id: call.traceId }, 'events of a streamed answer not recorded'));
    };

    return {
      format: formatOf(codec),
      onStreamStart(head: StreamHead) {
        if (head.format !== formatOf(codec)) return undefined;
        reply.hijack();
        const headers: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) headers[name] = typeof value === 'number' ? String(value) : value;
        Object.assign(headers, head.headers, { 'x-service-upstream-url': call.upstreamUrl });
        reply.raw.writeHead(head.status, headers);
        reply.raw.flushHeaders();
        const created = new StreamGuard({
          codec,
          check,
          holdback,
          context: WINDOW_CONTEXT_CHARS,
          tailNeed: need,
          write: (text) => void reply.raw.write(text),
          end: () => reply.raw.end(),
          onRefuse,
          onComplete,
        });
        guard = created;
        return (chunk) => created.push(chunk);
      },
      abortWith(inner) {
        return (abort) => {
          abortUpstream = abort;
          inner(abort);
        };
      },
      get started() {
        return guard !== undefined;
      },
      async finished() {
        await guard?.finish();
      },
      async failed(error) {
        if (!guard || guard.isClosed) return;
        const failure = isPalisadeError(error) ? error : new PalisadeError('LLM_REQUEST_FAILED', { cause: error });
        reply.log.warn({ trace_id: call.traceId, code: failure.code, reason: failure.message }, 'the upstream stream failed mid-way');
        await guard.fail({ message: failure.message, code: failure.code, type: failure.type, traceId: call.traceId });
      },
    };
  };
}
export type StreamScanning = ReturnType<typeof createStreamScanning>;
