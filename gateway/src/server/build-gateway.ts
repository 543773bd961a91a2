// The gateway (port 8085): POST /chat and POST on any other path (an SDK pointed straight at the
// gateway), routed by the in-memory snapshot and proxied to the provider's backend.
import type { Logger } from 'pino';
import { activeTracer, createService, type Cache, type Service, COMPONENT_PORTS } from '@palisade/core';
import type { GatewaySnapshot } from '../config/snapshot.js';
import type { EventEmitter } from '../events/index.js';
import type { RequestInspector } from '../pipeline/request-inspector.js';
import type { ResponseScanner } from '../pipeline/response-scanner.js';
import type { StreamScanning } from '../streaming/index.js';
import type { UpstreamClient } from '../upstream/index.js';
import type { UsageRecorder, UsageSlot } from '../usage/index.js';
import { createApiKeyAuth } from './api-keys.js';
import type { GatewayConfig } from './env.js';
import { limitConnections, methodNotAllowed } from './connections.js';
import { createProxyHandler } from './proxy.js';
import { tenantOf } from './request-info.js';

export const GATEWAY_PORT = COMPONENT_PORTS.gateway;

declare module 'fastify' {
  interface FastifyRequest extends UsageSlot {}
}

export interface GatewayDeps {
  config: GatewayConfig;
  /** The snapshot in force (the config loader's `current`). */
  current(): GatewaySnapshot | null;
  upstream: UpstreamClient;
  /** Rate-limit counters (Redis or in-process). */
  cache: Cache;
  logger?: Logger;
  logLevel?: string;
  closers?: Array<() => Promise<void>>;
  /** Inspection of calls whose provider has an ACTIVE profile. */
  inspector?: RequestInspector;
  /** Response scanning of those calls. */
  scanner?: ResponseScanner;
  /** Incremental scanning of streamed answers of those calls. */
  streams?: StreamScanning;
  /** Where the operational events of failed calls go (PROVIDER_ERROR, RATE_LIMIT, …). */
  events?: Pick<EventEmitter, 'emitLater'>;
  /** Usage accounting of every call (per-minute rollups flushed through the event stream). */
  usage?: Pick<UsageRecorder, 'route' | 'answer' | 'finish'>;
}

export function buildGateway(deps: GatewayDeps): Service {
  const { config } = deps;
  const writeTimeoutMs = Math.round(config.GATEWAY_SERVER_WRITE_TIMEOUT * 1000);
  const headersTimeoutMs = Math.round(config.GATEWAY_HEADERS_TIMEOUT * 1000);
  const bodyTimeoutMs = Math.round(config.GATEWAY_BODY_TIMEOUT * 1000);
  const service = createService({
    name: 'gateway',
    errorFormat: 'gateway',
    // Inspection must not block the loop (target: delay p99 <= 10 ms under load): measured here.
    eventLoopMetrics: true,
    ...(deps.logger ? { logger: deps.logger } : { logLevel: deps.logLevel ?? 'info' }),
    bodyLimit: config.GATEWAY_MAX_BODY_BYTES,
    readiness: {
      configuration: async () => {
        if (!deps.current()) throw new Error('no policy bundle loaded yet');
      },
    },
    // The revision it routes by: a deploy script compares it with the registry's X-Bundle-Revision.
    readinessDetails: () => ({ bundle_revision: deps.current()?.revision ?? null }),
    server: {
      keepAliveTimeout: Math.round(config.GATEWAY_KEEPALIVE_TIMEOUT * 1000),
      // Receiving the request is bounded by the headers and body timeouts (408); after that a socket
      // silent for GATEWAY_SERVER_WRITE_TIMEOUT (the upstream still working) is closed. Node keeps
      // these timers per socket, so no per-request timer is needed on the hot path.
      requestTimeout: bodyTimeoutMs,
      connectionTimeout: writeTimeoutMs,
    },
    http: {
      headersTimeout: headersTimeoutMs,
      requestTimeout: bodyTimeoutMs,
      // node checks both timeouts on this period (default 30 s, which would triple a 10 s timeout).
      connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(headersTimeoutMs / 4))),
    },
    // Every method but POST is refused, also those node's parser does not know (PROPFIND, FOO).
    notFound: methodNotAllowed,
    allowedMethods: 'POST',
    ...(deps.closers ? { closers: deps.closers } : {}),
  });
  const { app } = service;

  // Bodies stay bytes: the fallback forwards them untouched and a routed call parses them itself,
  // after routing, so that a bad body is answered with the trace id.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  const proxy = createProxyHandler({
    current: deps.current,
    upstream: deps.upstream,
    auth: config.AUTH_ENABLED ? createApiKeyAuth({ cache: deps.cache, defaultLimitPerMinute: config.GATEWAY_RATE_LIMIT_PER_MINUTE }) : undefined,
    fallbackEnabled: config.GATEWAY_FALLBACK_ENABLED,
    inspector: deps.inspector,
    scanner: deps.scanner,
    streams: deps.streams,
    events: deps.events,
    usage: deps.usage,
    tracer: activeTracer('gateway'),
  });
  // Declared up front, as every request property the gateway sets (one shape for all requests).
  app.decorateRequest('routedTenant', undefined);
  const usage = deps.usage;
  if (usage) {
    // Declared up front: every request gets the property in its constructor, one shape for all.
    app.decorateRequest('usageCall', null);
    app.addHook('onResponse', (request, reply, done) => {
      try {
        const decision = reply.getHeader('x-service-decision');
        usage.finish(request, { tenantId: tenantOf(request.headers), status: reply.statusCode, latencyMs: reply.elapsedTime, decision: typeof decision === 'string' ? decision : undefined });
      } finally {
        done();
      }
    });
  }
  app.post('/chat', proxy);
  app.post('/*', proxy);

  limitConnections(app.server, config.GATEWAY_MAX_CONNECTIONS);
  return service;
}
