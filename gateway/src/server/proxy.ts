// One proxied call, in the order of the spec's "Gateway pipeline": route, extract, inspect (normalize,
// detect, decide, sanitize), proxy, scan the answer, record. Each stage is a file of
// gateway/src/pipeline/; this is only their order and what passes between them.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Tracer } from '@palisade/core';
import type { GatewaySnapshot } from '../config/snapshot.js';
import type { EventEmitter } from '../events/index.js';
import { GATEWAY_HEADERS, type CallState } from '../pipeline/call-state.js';
import { extractCall, parseJsonBody } from '../pipeline/extract.js';
import { proxyToNamedBackend } from '../pipeline/fallback.js';
import { inspectCall } from '../pipeline/inspect.js';
import { abortOnClientClose, callUpstream, upstreamSpan } from '../pipeline/proxy.js';
import type { Pseudonyms } from '../pipeline/pseudonyms.js';
import { recordingCalls } from '../pipeline/record.js';
import type { InspectRequest, RequestInspector } from '../pipeline/request-inspector.js';
import type { ResponseScanner } from '../pipeline/response-scanner.js';
import { checkRoute, routeCall } from '../pipeline/route.js';
import { scanAndSend } from '../pipeline/scan.js';
import type { StreamScanning } from '../streaming/index.js';
import type { UpstreamClient } from '../upstream/index.js';
import { requestModelOf, type UsageRecorder } from '../usage/index.js';
import type { ApiKeyAuth } from './api-keys.js';
import { GATEWAY_CONTROL_HEADERS } from './request-info.js';

export { GATEWAY_HEADERS } from '../pipeline/call-state.js';
export { FALLBACK_TIMEOUT_MS } from '../pipeline/fallback.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The tenant of a routed call (after API-key authentication): the metrics' tenant label. */
    routedTenant?: string;
  }
}

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

export function createProxyHandler(deps: ProxyDeps) {
  return recordingCalls(deps.events, async function handle(request: FastifyRequest, reply: FastifyReply, state: CallState | null, recordUpstreamStatus?: (state: CallState, status: number) => void) {
    // 1. Route: the tenant and the provider (or the caller's own backend, uninspected).
    const { snapshot, tenantId, route } = await routeCall(deps, request, reply, state);
    if (!route) return proxyToNamedBackend(deps, request, reply, tenantId);
    const traceId = request.id;
    request.traceId = traceId;
    request.routedTenant = tenantId;
    const { provider, profile } = route;
    if (state) state.route = { providerId: provider.id, providerName: provider.name, profile: profile ?? undefined };
    reply.header(GATEWAY_HEADERS.traceId, traceId).header(GATEWAY_HEADERS.providerId, provider.id);
    if (profile) reply.header(GATEWAY_HEADERS.profileId, profile.id);
    checkRoute(route);

    // 2. Extract (profiled calls only: without a profile a call passes uninspected).
    const raw = request.body as Buffer | undefined;
    const json = parseJsonBody(raw);
    deps.usage?.route(request, { tenantId, providerId: provider.id, providerName: provider.name, model: requestModelOf(json), inspected: Boolean(profile && deps.inspector) });
    const extracted = profile ? extractCall(deps.tracer, request, route, profile.id, tenantId, json) : null;
    const context: InspectRequest['context'] | undefined = extracted?.context;
    if (state && context) state.context = context;
    const systemPrompt = extracted?.extraction.system_prompt ?? '';

    // 3-5. Inspect: normalize, detect, decide, sanitize (a block ends the call here).
    let body = raw!;
    let pseudonyms: Pseudonyms | undefined;
    if (profile && extracted && deps.inspector) {
      ({ body, pseudonyms } = await inspectCall(deps.inspector, reply, { profile, snapshot, json, raw: raw!, extraction: extracted.extraction, traceId, tenantId, context: extracted.context, traceContext: request.traceContext }));
    }

    // 6. Proxy, with the snapshot's provider settings (an edit made meanwhile applies to the next call).
    // A streamed answer of a profiled call is relayed as it comes, scanned on the fly (step 7 inline).
    const stream = profile && context && deps.scanner && deps.streams
      ? deps.streams.plan({ profile, snapshot, upstreamUrl: route.upstreamUrl, json, systemPrompt, traceId, tenantId, context, reply, pseudonyms })
      : null;
    const answer = await upstreamSpan(deps.tracer, request.traceContext, provider, json, () =>
      callUpstream(deps.upstream, reply, {
        url: route.upstreamUrl,
        headers: request.headers,
        stripHeaders: GATEWAY_CONTROL_HEADERS,
        body,
        timeoutMs: provider.request_timeout_ms,
        auth: route.auth,
        // With AUTH_ENABLED the Authorization header is the gateway's own API key: it is consumed here
        // and never passed to a provider (use upstream_auth for the vendor's credential).
        ...(deps.auth ? { clientAuthorization: '' } : {}),
        abortWith: stream ? stream.abortWith(abortOnClientClose(reply)) : abortOnClientClose(reply),
        ...(stream ? { onStreamStart: stream.onStreamStart } : {}),
        ...(stream?.format === 'ndjson' ? { expectedStream: stream.format } : {}),
      }),
    ).catch(async (error: unknown) => {
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
    if (state && recordUpstreamStatus && answer.status >= 500) recordUpstreamStatus(state, answer.status);

    // 7. Scan the answer (profiled calls) and send it.
    const scan = profile && context ? { profile, snapshot, mapping: route.mapping, systemPrompt, traceId, tenantId, context } : null;
    return scanAndSend(deps, reply, answer, scan, request.traceContext, pseudonyms);
  });
}
