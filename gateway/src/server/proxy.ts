// One proxied call, from routing to the upstream's answer (spec "Gateway pipeline" steps 1, 2 and 6;
// routing rules 1-8; the error table). Inspection (steps 3-5 and 7) plugs in between extraction and
// the upstream call.
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { EXTRACTION_EMPTY_WARNING, inSpan, inSpanSync, isExtractionEmpty, isSampled, PalisadeError, SpanKind, type Profile, type TraceContext, type Tracer } from '@palisade/core';
import type { GatewaySnapshot } from '../config/snapshot.js';
import { emitOperationalEvent, operationalEventOf, upstreamStatusEvent, type EventEmitter, type SecurityEventContext, type SecurityEventPart } from '../events/index.js';
import { extractForInspection } from '../pipeline/inspected-text.js';
import { decisionHeader, type InspectRequest, type RequestInspector } from '../pipeline/request-inspector.js';
import { restoreAnswer, type Pseudonyms } from '../pipeline/pseudonyms.js';
import type { ResponseScanner } from '../pipeline/response-scanner.js';
import { INSPECTION_HEADER } from '../pipeline/proof-of-inspection.js';
import type { StreamScanning } from '../streaming/index.js';
import type { UpstreamClient, UpstreamRequest, UpstreamResponse } from '../upstream/index.js';
import { requestModelOf, tokenUsageOf, type UsageRecorder } from '../usage/index.js';
import type { ApiKeyAuth } from './api-keys.js';
import { firstHeader, GATEWAY_CONTROL_HEADERS, originalUriOf, sourceIpOf, tenantOf } from './request-info.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The tenant of a routed call (after API-key authentication): the metrics' tenant label. */
    routedTenant?: string;
  }
}

/** Response headers of the spec. */
export const GATEWAY_HEADERS = {
  traceId: 'x-service-trace-id',
  upstreamUrl: 'x-service-upstream-url',
  decision: 'x-service-decision',
  processingMs: 'x-service-processing-ms',
  providerId: 'x-provider-id',
  profileId: 'x-profile-id',
} as const;

/** request_timeout_ms of the fallback route, which has no provider: the provider default. */
export const FALLBACK_TIMEOUT_MS = 30_000;

export interface ProxyDeps {
  current(): GatewaySnapshot | null;
  upstream: UpstreamClient;
  /** Present when AUTH_ENABLED=true. */
  auth?: ApiKeyAuth | undefined;
  fallbackEnabled: boolean;
  /** Inspects calls of providers with an ACTIVE profile; without it they pass uninspected. */
  inspector?: RequestInspector | undefined;
  /** Scans the answers of those calls (when the profile's response_scanning is on). */
  scanner?: ResponseScanner | undefined;
  /** Streams the answers of `stream: true` calls of those providers as they arrive, scanned on the fly. */
  streams?: StreamScanning | undefined;
  /** Where PROVIDER_ERROR, RATE_LIMIT, SERVICE_UNAVAILABLE and REQUEST_ERROR go. */
  events?: Pick<EventEmitter, 'emitLater'> | undefined;
  /** Usage accounting: learns each routed call and its answer's token usage. */
  usage?: Pick<UsageRecorder, 'route' | 'answer'> | undefined;
  /** Present when traces are on: one span per stage of the call (route, extract, upstream, response scan). */
  tracer?: Tracer | undefined;
}

/** What is known of a call when it fails, for its operational event. */
interface CallState {
  tenantId: string;
  traceId: string;
  sourceIp: string | null;
  route?: { providerId: string; providerName: string; profile?: Profile | undefined } | undefined;
  context?: InspectRequest['context'] | undefined;
}

function parseJsonBody(raw: Buffer | undefined): unknown {
  if (!raw || raw.length === 0) throw new PalisadeError('INVALID_REQUEST', { message: 'The request body must be a JSON object' });
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (cause) {
    throw new PalisadeError('INVALID_REQUEST', { message: 'The request body is not valid JSON', cause });
  }
}

/** X-Real-Backend is scheme + host (and port) only: no path, no trailing slash (spec request headers). */
function fallbackUrl(backend: string, path: string): string {
  const url = URL.canParse(backend) ? new URL(backend) : null;
  const origin = url && (url.protocol === 'http:' || url.protocol === 'https:') ? url.origin : null;
  if (!origin || origin !== backend) {
    throw new PalisadeError('INVALID_REQUEST', { message: 'X-Real-Backend must be a scheme and host only, e.g. https://llm.example.com' });
  }
  if (!path.startsWith('/')) throw new PalisadeError('INVALID_REQUEST', { message: 'X-Real-Backend-Path must start with /' });
  return backend + path;
}

/** The abort of the upstream call now running for a socket's request. */
const RUNNING_CALL = Symbol('palisade.runningUpstreamCall');
type TrackedSocket = Socket & { [RUNNING_CALL]?: ((reason: Error) => void) | null };

/**
 * The client going away before its answer is written stops the upstream call too. One 'close'
 * listener per connection (not per request) reads the abort of the call in flight; an HTTP/1.1
 * connection carries one request at a time.
 */
function abortOnClientClose(reply: FastifyReply) {
  return (abort: (reason: Error) => void) => {
    const socket = reply.raw.socket as TrackedSocket | null;
    if (!socket) return;
    if (socket[RUNNING_CALL] === undefined) {
      socket.once('close', () => socket[RUNNING_CALL]?.(new Error('the client closed the connection')));
    }
    socket[RUNNING_CALL] = abort;
  };
}

function callFinished(reply: FastifyReply): void {
  const socket = reply.raw.socket as TrackedSocket | null;
  if (socket && socket[RUNNING_CALL]) socket[RUNNING_CALL] = null;
}

/**
 * Calls the upstream; when the client went away meanwhile, the failure is the client's (499, logged at
 * info as nginx does), not an upstream error.
 */
async function callUpstream(upstream: UpstreamClient, reply: FastifyReply, request: UpstreamRequest): Promise<UpstreamResponse> {
  try {
    return await upstream.send(request);
  } catch (error) {
    if (reply.raw.destroyed && !reply.raw.writableFinished) {
      throw new PalisadeError('LLM_REQUEST_FAILED', { status: 499, message: 'The client closed the connection before the answer', cause: error });
    }
    throw error;
  } finally {
    callFinished(reply);
  }
}

/**
 * The provider call as an OpenTelemetry GenAI client span: provider, requested model and the token
 * usage the answer reports (never the prompt or the answer).
 */
function upstreamSpan(tracer: Tracer | undefined, parent: TraceContext | undefined, provider: { id: string; name: string; provider_type: string }, json: unknown, call: () => Promise<UpstreamResponse>): Promise<UpstreamResponse> {
  if (!tracer || !isSampled(parent)) return call();
  const model = requestModelOf(json);
  const attributes = { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': provider.provider_type, 'gen_ai.request.model': model, 'palisade.provider_id': provider.id };
  return inSpan(
    tracer,
    parent,
    model ? `chat ${model}` : 'chat',
    async (_ctx, span) => {
      const answer = await call();
      span?.setAttribute('http.response.status_code', answer.status);
      const tokens = tokenUsageOf(answer);
      if (tokens) span?.setAttributes({ 'gen_ai.usage.input_tokens': tokens.input, 'gen_ai.usage.output_tokens': tokens.output });
      return answer;
    },
    { kind: SpanKind.CLIENT, attributes },
  );
}

function sendAnswer(reply: FastifyReply, answer: UpstreamResponse): FastifyReply {
  for (const [name, value] of Object.entries(answer.headers)) reply.header(name, value);
  return reply.code(answer.status).send(answer.body);
}

function eventContextOf(state: CallState): SecurityEventContext {
  return {
    ...(state.context ?? {}),
    trace_id: state.traceId,
    tenant_id: state.tenantId,
    source_ip: state.context?.source_ip ?? state.sourceIp,
    ...(state.route && !state.context ? { provider_id: state.route.providerId, provider_name: state.route.providerName, profile_id: state.route.profile?.id ?? null } : {}),
  };
}

export function createProxyHandler(deps: ProxyDeps) {
  const events = deps.events;
  const record = (state: CallState, part: SecurityEventPart | null) => {
    if (events && part) emitOperationalEvent(events, part, eventContextOf(state), state.route?.profile);
  };
  const handle = createCallHandler(deps, events ? (state, status) => record(state, upstreamStatusEvent(status)) : undefined);
  if (!events) return (request: FastifyRequest, reply: FastifyReply) => handle(request, reply, null);
  return async function proxy(request: FastifyRequest, reply: FastifyReply) {
    const state: CallState = { tenantId: tenantOf(request.headers), traceId: request.id, sourceIp: sourceIpOf(request.headers, request.socket.remoteAddress) };
    try {
      return await handle(request, reply, state);
    } catch (error) {
      record(state, operationalEventOf(error));
      throw error;
    }
  };
}

/** The call itself; `state` (when events are recorded) learns the tenant, route and context as they are known. */
function createCallHandler(deps: ProxyDeps, onUpstreamStatus: ((state: CallState, status: number) => void) | undefined) {
  return async function handle(request: FastifyRequest, reply: FastifyReply, state: CallState | null) {
    const snapshot = deps.current();
    if (!snapshot) throw new PalisadeError('SERVICE_UNAVAILABLE', { message: 'The gateway has not loaded its configuration yet' });
    const headers = request.headers;
    let tenantId = tenantOf(headers);
    if (deps.auth) {
      const authenticated = await deps.auth.authenticate(headers.authorization, snapshot, firstHeader(headers, 'x-tenant-id'));
      reply.headers(authenticated.headers);
      tenantId = authenticated.key.tenant_id;
      if (state) state.tenantId = tenantId;
    }

    const traceId = request.id;
    const route = inSpanSync(deps.tracer, request.traceContext, 'gateway.route', () => snapshot.match({ tenant_id: tenantId, original_uri: originalUriOf(headers, request.url), host: headers.host, headers }));
    const raw = request.body as Buffer | undefined;

    if (!route) {
      const backend = deps.fallbackEnabled ? firstHeader(headers, 'x-real-backend') : undefined;
      if (!backend) throw new PalisadeError('NO_BACKEND_CONFIGURED', { message: `No active provider of tenant ${tenantId} matches this request and X-Real-Backend is absent` });
      const path = firstHeader(headers, 'x-real-backend-path');
      if (!path) throw new PalisadeError('NO_BACKEND_PATH_CONFIGURED');
      const url = fallbackUrl(backend, path);
      request.traceId = traceId;
      reply.header(GATEWAY_HEADERS.traceId, traceId);
      // Spec routing rule 6: the original body and Authorization, no inspection.
      const answer = await callUpstream(deps.upstream, reply, {
        url,
        headers,
        stripHeaders: GATEWAY_CONTROL_HEADERS,
        ...(raw ? { body: raw } : {}),
        timeoutMs: FALLBACK_TIMEOUT_MS,
        auth: undefined,
        abortWith: abortOnClientClose(reply),
      });
      reply.header(GATEWAY_HEADERS.upstreamUrl, url);
      return sendAnswer(reply, answer);
    }

    request.traceId = traceId;
    request.routedTenant = tenantId;
    const { provider } = route;
    if (state) state.route = { providerId: provider.id, providerName: provider.name, profile: route.profile ?? undefined };
    reply.header(GATEWAY_HEADERS.traceId, traceId).header(GATEWAY_HEADERS.providerId, provider.id);
    if (route.profile) reply.header(GATEWAY_HEADERS.profileId, route.profile.id);
    if (!route.upstreamUrl) throw new PalisadeError('PROVIDER_MISSING_TARGET');
    if (!route.mapping) throw new PalisadeError('MISSING_FIELD_MAPPING', { ...(route.mappingError ? { message: route.mappingError } : {}) });
    if (route.authError) throw new PalisadeError('INTERNAL_ERROR', { message: 'The provider credentials cannot be decrypted', cause: new Error(route.authError) });

    const json = parseJsonBody(raw);
    deps.usage?.route(request, { tenantId, providerId: provider.id, providerName: provider.name, model: requestModelOf(json), inspected: Boolean(route.profile && deps.inspector) });
    let body = raw!;
    let systemPrompt = '';
    // Set for profiled calls only: the unprofiled hot path builds no event context.
    let eventContext: InspectRequest['context'] | undefined;
    // Pseudonymised values of the request, restored in its answer (request memory only).
    let pseudonyms: Pseudonyms | undefined;
    if (route.profile) {
      // The detectors read the mapped text; without a profile nothing is inspected, so nothing is
      // extracted (spec: "without a profile, requests pass uninspected").
      const { extraction, everyString } = inSpanSync(deps.tracer, request.traceContext, 'gateway.extract', () => extractForInspection(route.mapping!, json));
      systemPrompt = extraction.system_prompt;
      if (everyString || isExtractionEmpty(extraction)) {
        request.log.warn({ provider_id: provider.id, mapping_preset: provider.mapping_preset ?? null, tenant_id: tenantId, every_string_inspected: everyString }, EXTRACTION_EMPTY_WARNING);
      }
      eventContext = {
        source_ip: sourceIpOf(headers, request.socket.remoteAddress),
        provider_id: provider.id,
        provider_name: provider.name,
        profile_id: route.profile.id,
        model: extraction.model,
        user_prompt: extraction.user_messages.at(-1) ?? extraction.prompt,
      };
      if (state) state.context = eventContext;
      if (deps.inspector) {
        const inspection = await deps.inspector({ profile: route.profile, snapshot, json, raw: raw!, extraction, traceId, tenantId, context: eventContext, traceContext: request.traceContext });
        body = inspection.body;
        pseudonyms = inspection.pseudonyms;
        reply
          .header(GATEWAY_HEADERS.decision, decisionHeader(inspection.result.effective))
          .header(GATEWAY_HEADERS.processingMs, String(inspection.processingMs));
        if (inspection.inspectionHeader !== undefined) reply.header(INSPECTION_HEADER, inspection.inspectionHeader);
      }
    }

    const stream = route.profile && eventContext && deps.scanner && deps.streams
      ? deps.streams({ profile: route.profile, snapshot, upstreamUrl: route.upstreamUrl, json, systemPrompt, traceId, tenantId, context: eventContext, reply, pseudonyms })
      : null;
    // The provider settings are those of the snapshot taken when the request arrived: an edit made
    // while this call runs applies to the next one (spec, provider mutability).
    const answer = await upstreamSpan(deps.tracer, request.traceContext, provider, json, () => callUpstream(deps.upstream, reply, {
      url: route.upstreamUrl!,
      headers,
      stripHeaders: GATEWAY_CONTROL_HEADERS,
      body,
      timeoutMs: provider.request_timeout_ms,
      auth: route.auth,
      // With AUTH_ENABLED the Authorization header is the gateway's own API key: it is consumed here
      // and never passed to a provider (use upstream_auth for the vendor's credential).
      ...(deps.auth ? { clientAuthorization: '' } : {}),
      abortWith: stream ? stream.abortWith(abortOnClientClose(reply)) : abortOnClientClose(reply),
      ...(stream ? { onStreamStart: stream.onStreamStart } : {}),
    })).catch(async (error: unknown) => {
      // Once the client's stream has started, a failure ends it in the vendor's terms.
      if (!stream?.started) throw error;
      await stream.failed(error);
      return null;
    });
    if (!answer) return reply;
    reply.header(GATEWAY_HEADERS.upstreamUrl, route.upstreamUrl);
    deps.usage?.answer(request, answer);
    if (stream?.started) {
      await stream.finished();
      return reply;
    }
    if (state && onUpstreamStatus && answer.status >= 500) onUpstreamStatus(state, answer.status);
    if (route.profile && eventContext && deps.scanner && answer.status >= 200 && answer.status < 300) {
      const scan = await inSpan(deps.tracer, request.traceContext, 'gateway.response_scan', (traceContext) =>
        deps.scanner!({ profile: route.profile!, snapshot, mapping: route.mapping!, answer, systemPrompt, traceId, tenantId, context: eventContext!, traceContext }),
      );
      if (scan?.inspectionHeader) {
        const requestSide = reply.getHeader(INSPECTION_HEADER);
        reply.header(INSPECTION_HEADER, typeof requestSide === 'string' && requestSide ? `${requestSide}, ${scan.inspectionHeader}` : scan.inspectionHeader);
      }
      if (scan) return sendAnswer(reply, { ...answer, body: restoreAnswer(scan.body, answer.contentType, pseudonyms) });
    }
    return sendAnswer(reply, pseudonyms ? { ...answer, body: restoreAnswer(answer.body, answer.contentType, pseudonyms) } : answer);
  };
}
