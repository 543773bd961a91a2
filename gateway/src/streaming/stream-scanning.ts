// The proxy's side of incremental response scanning: decides whether a call's answer streams to the
// client (a profiled `stream: true` call in a vendor format we read, whose profile allows it), and
// wires the upstream's stream tap to a StreamGuard writing the client's response.
import type { FastifyReply } from 'fastify';
import { isPalisadeError, PalisadeError, type ContentPolicy, type Profile, type StreamCodec } from '@palisade/core';
import type { GatewaySnapshot } from '../config/snapshot.js';
import { buildSecurityEvents, sideEventContext, type CallEventContext, type EventEmitter, type SecurityEventPart } from '../events/index.js';
import type { InspectionDetectors } from '../pipeline/detectors.js';
import type { Pseudonyms } from '../pipeline/pseudonyms.js';
import { profilePolicies } from '../pipeline/profile-policies.js';
import { inspectionChecks, type InspectionOutcomes } from '../pipeline/proof-of-inspection.js';
import type { StreamFormat, StreamHead, UpstreamRequest } from '../upstream/index.js';
import { asksForStream, codecForUrl, formatOf } from './codecs.js';
import { bufferingReason, holdbackChars, tailNeed, WINDOW_CONTEXT_CHARS, type TailNeed } from './holdback-size.js';
import { createRulePrefixCache, RULE_PREFIX_SETS, type RulePrefixCompiler } from './rule-prefixes-compiler.js';
import { StreamGuard, type Refusal, type StreamGuardOptions } from './stream-guard.js';
import { createWindowCheck, withRestoration, type WindowCheck } from './window-check.js';

export interface StreamCall {
  profile: Profile;
  snapshot: Pick<GatewaySnapshot, 'revision' | 'contentPolicy'>;
  upstreamUrl: string;
  /** The parsed request body: only calls asking for a stream (`stream: true`, or the codec's flag) stream. */
  json: unknown;
  systemPrompt: string;
  traceId: string;
  tenantId: string;
  context: CallEventContext;
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
  /** The rules' prefix automaton was built when the stream was planned (or none is needed); false: the fixed lengths apply until it is. */
  readonly rulesReady: boolean;
  /** The upstream call ended (resolved): flush and end. */
  finished(): Promise<void>;
  /** The upstream call failed after the stream started: the vendor's error event and end marker. */
  failed(error: unknown): Promise<void>;
}

/** What the gateway knows of a bundle when it loads: its active profiles and their policies. */
export type LoadedBundle = Pick<GatewaySnapshot, 'contentPolicy' | 'profiles'>;

export interface StreamScanningOptions {
  events?: Pick<EventEmitter, 'emitLater'> | undefined;
  /** Builds the blocklist rules' prefix automaton (default: on a worker thread). */
  compileRulePrefixes?: RulePrefixCompiler | undefined;
}

/** The response policies of a profile whose streams are scanned on the fly; null: its streams are buffered. */
function streamingPolicies(profile: Profile, snapshot: Pick<GatewaySnapshot, 'contentPolicy'>): ContentPolicy[] | null {
  const policies = profile.response_scanning.enabled ? profilePolicies(profile, snapshot, 'response') : [];
  return bufferingReason(profile, policies) === null ? policies : null;
}

/** The answer is checked at all: output PII or a blocklist rule. */
function isChecking(profile: Profile, policies: readonly ContentPolicy[]): boolean {
  const settings = profile.response_scanning;
  return settings.enabled && (settings.pii_mode !== 'disabled' || policies.some((p) => p.type === 'blocklist'));
}

/** The checks read the rules' prefix automaton: a profile's fixed hold-back replaces it (none is built for it). */
const usesRuleAutomaton = (profile: Profile, policies: readonly ContentPolicy[]): boolean => isChecking(profile, policies) && profile.response_scanning.stream_holdback_chars === null;

type RulePrefixesFor = ReturnType<typeof createRulePrefixCache>;

/** A stream's window rules: the checks of a window, the hold-back, and the tail a value in progress needs. */
interface WindowRules {
  /** The response checks alone (the end-of-stream events are theirs); absent when nothing is checked. */
  checks: WindowCheck | undefined;
  /** The checks with the placeholders' restoration. */
  check: WindowCheck | undefined;
  holdback: number;
  need: TailNeed | undefined;
  rulesReady: boolean;
}

/** A placeholder in progress: from its `[` on, while it can still be one. */
const placeholderNeed = (longest: number): TailNeed => (window) => {
  const open = window.lastIndexOf('[');
  return open >= 0 && window.length - open < longest ? window.length - open : 0;
};

function windowRules(detectors: Pick<InspectionDetectors, 'pii' | 'contentPolicy' | 'decisionPoint'>, call: StreamCall, policies: readonly ContentPolicy[], rulePrefixesFor: RulePrefixesFor): WindowRules {
  const checking = isChecking(call.profile, policies);
  const restoring = call.pseudonyms && call.pseudonyms.size > 0 ? call.pseudonyms : undefined;
  const checks = checking ? createWindowCheck(detectors, call) : undefined;
  const check = restoring ? withRestoration(checks, restoring) : checks;
  const holdback = Math.max(checking ? holdbackChars(call.profile, policies, call.systemPrompt) : 0, restoring?.longest ?? 0);
  const prefixes = usesRuleAutomaton(call.profile, policies) ? rulePrefixesFor(policies) : undefined;
  const checksNeed = checking ? tailNeed(call.profile, policies, call.systemPrompt, prefixes?.rules) : undefined;
  const inPlaceholder = placeholderNeed(restoring?.longest ?? 0);
  const need = restoring ? (window: string) => Math.max(checksNeed?.(window) ?? 0, inPlaceholder(window)) : checksNeed;
  return { checks, check, holdback, need, rulesReady: prefixes === undefined || prefixes.isBuilt() };
}

type Emit = (call: StreamCall, drafts: SecurityEventPart[], outcomes: InspectionOutcomes | undefined) => void;

/** A refused stream: its events recorded, the upstream stopped, the client's message in the vendor's error event. */
function refusalHandler(call: StreamCall, emit: Emit, upstream: { abort?: ((reason: Error) => void) | undefined }): StreamGuardOptions['onRefuse'] {
  return (refusal: Refusal) => {
    const verdict = refusal.kind === 'verdict' ? refusal.verdict.result : undefined;
    const reasons = verdict?.reasons.length ? verdict.reasons : [refusal.kind === 'unscannable' ? refusal.reason : 'the answer was blocked'];
    const drafts: SecurityEventPart[] = verdict ? [...verdict.events] : [];
    if (!drafts.some((e) => e.event_type === 'RESPONSE_BLOCKED')) drafts.push({ event_type: 'RESPONSE_BLOCKED', reasons });
    emit(call, drafts, refusal.kind === 'verdict' ? refusal.verdict.outcomes : undefined);
    call.reply.log.info({ trace_id: call.traceId, reasons }, 'stream blocked mid-way');
    upstream.abort?.(new Error('the stream was blocked'));
    const blocked = new PalisadeError('RESPONSE_BLOCKED', { reasons });
    return { message: `${blocked.message}: ${reasons.join('; ')}`, code: blocked.code, type: blocked.type, traceId: call.traceId };
  };
}

/** A stream that ended unrefused: windows overlap, so their events would repeat; the events of the whole answer are recorded once. */
function completionHandler(call: StreamCall, checks: WindowCheck | undefined, emit: Emit): NonNullable<StreamGuardOptions['onComplete']> {
  return (texts, findings) => {
    if (!findings || !checks) return;
    void (async () => {
      for (const text of texts.values()) {
        const verdict = await checks(text);
        emit(call, verdict.result?.events ?? [], verdict.outcomes);
      }
    })().catch((error: unknown) => call.reply.log.warn({ err: error, trace_id: call.traceId }, 'events of a streamed answer not recorded'));
  };
}

/** Starts the client's response with the upstream's head and returns the guard writing its body. */
function startGuard(call: StreamCall, head: StreamHead, options: Omit<StreamGuardOptions, 'context' | 'write' | 'end'>): StreamGuard {
  const reply = call.reply;
  reply.hijack();
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) headers[name] = typeof value === 'number' ? String(value) : value;
  Object.assign(headers, head.headers, { 'x-service-upstream-url': call.upstreamUrl });
  reply.raw.writeHead(head.status, headers);
  reply.raw.flushHeaders();
  return new StreamGuard({ ...options, context: WINDOW_CONTEXT_CHARS, write: (text) => void reply.raw.write(text), end: () => reply.raw.end() });
}

function plannedStream(call: StreamCall, codec: StreamCodec, rules: WindowRules, emit: Emit): PlannedStream {
  let guard: StreamGuard | undefined;
  const upstream: { abort?: ((reason: Error) => void) | undefined } = {};
  const onRefuse = refusalHandler(call, emit, upstream);
  const onComplete = completionHandler(call, rules.checks, emit);
  return {
    format: formatOf(codec),
    rulesReady: rules.rulesReady,
    onStreamStart(head: StreamHead) {
      if (head.format !== formatOf(codec)) return undefined;
      const created = startGuard(call, head, { codec, check: rules.check, holdback: rules.holdback, tailNeed: rules.need, onRefuse, onComplete });
      guard = created;
      return (chunk) => created.push(chunk);
    },
    abortWith(inner) {
      return (abort) => {
        upstream.abort = abort;
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
      call.reply.log.warn({ trace_id: call.traceId, code: failure.code, reason: failure.message }, 'the upstream stream failed mid-way');
      await guard.fail({ message: failure.message, code: failure.code, type: failure.type, traceId: call.traceId });
    },
  };
}

export function createStreamScanning(detectors: Pick<InspectionDetectors, 'pii' | 'contentPolicy' | 'decisionPoint'>, options: StreamScanningOptions = {}) {
  const emit: Emit = (call, drafts, outcomes) => {
    if (!options.events || drafts.length === 0) return;
    const context = sideEventContext(call, null, outcomes ? inspectionChecks('response', outcomes, call.profile) : []);
    options.events.emitLater(() => buildSecurityEvents(drafts, context, { profile: call.profile, now: new Date() }));
  };
  const rulePrefixesFor = createRulePrefixCache(options.compileRulePrefixes);

  return {
    /** The call's incremental stream, or null: its answer takes the buffered path. */
    plan(call: StreamCall): PlannedStream | null {
      const codec = codecForUrl(call.upstreamUrl);
      if (!codec || !asksForStream(codec, call.json)) return null;
      const policies = streamingPolicies(call.profile, call.snapshot);
      if (policies === null) return null;
      return plannedStream(call, codec, windowRules(detectors, call, policies, rulePrefixesFor), emit);
    },
    /**
     * A bundle was loaded: the rules' automata of its streaming profiles are built now (on the worker
     * thread, one at a time; unchanged sets of rules are kept), so a profile's first stream after a
     * change finds its automaton ready instead of holding back the fixed lengths while it is built.
     * Resolves when every build has settled.
     */
    async prewarm(bundle: LoadedBundle): Promise<void> {
      const builds: Promise<void>[] = [];
      for (const profile of bundle.profiles) {
        // No more than the cache keeps: past that a load would evict the sets it just built.
        if (builds.length >= RULE_PREFIX_SETS) break;
        const policies = streamingPolicies(profile, bundle);
        if (policies !== null && usesRuleAutomaton(profile, policies)) builds.push(rulePrefixesFor(policies).ready);
      }
      await Promise.all(builds);
    },
  };
}
export type StreamScanning = ReturnType<typeof createStreamScanning>;
