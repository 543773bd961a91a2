// The gateway (port 8085): POST /chat and POST on any other path (an SDK pointed straight at the
// gateway), routed by the in-memory snapshot and proxied to the provider's backend.
import type { Logger } from 'pino';
import { createService, PalisadeError, type Cache, type Service } from '@palisade/core';
import type { GatewaySnapshot } from '../config/snapshot.js';
import type { EventEmitter } from '../events/index.js';
import type { RequestInspector } from '../pipeline/request-inspector.js';
import type { ResponseScanner } from '../pipeline/response-scanner.js';
import type { UpstreamClient } from '../upstream/index.js';
import { createApiKeyAuth } from './api-keys.js';
import type { GatewayConfig } from './env.js';
import { createProxyHandler } from './proxy.js';

export const GATEWAY_PORT = 8085;

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
  /** Where the operational events of failed calls go (PROVIDER_ERROR, RATE_LIMIT, …). */
  events?: Pick<EventEmitter, 'emitLater'>;
}

const NOT_PROXIED_METHODS = ['GET', 'PUT', 'PATCH', 'DELETE'] as const;

export function buildGateway(deps: GatewayDeps): Service {
  const { config } = deps;
  const writeTimeoutMs = Math.round(config.GATEWAY_SERVER_WRITE_TIMEOUT * 1000);
  const service = createService({
    name: 'gateway',
    errorFormat: 'gateway',
    // Inspection must not block the loop (issue 4 target: delay p99 <= 10 ms under load): measured here.
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
      // GATEWAY_SERVER_WRITE_TIMEOUT: receiving the request and writing the answer each get the
      // budget; a socket silent that long (the upstream still working) is closed. Node keeps these
      // timers per socket, so no per-request timer is needed on the hot path.
      requestTimeout: writeTimeoutMs,
      connectionTimeout: writeTimeoutMs,
    },
    ...(deps.closers ? { closers: deps.closers } : {}),
  });
  const { app } = service;

  // Bodies stay bytes: the fallback forwards them untouched and a routed call parses them itself,
  // after routing, so that a bad body is answered with the trace id (issue 3, item 10).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  const proxy = createProxyHandler({
    current: deps.current,
    upstream: deps.upstream,
    auth: config.AUTH_ENABLED ? createApiKeyAuth({ cache: deps.cache, defaultLimitPerMinute: config.GATEWAY_RATE_LIMIT_PER_MINUTE }) : undefined,
    fallbackEnabled: config.GATEWAY_FALLBACK_ENABLED,
    inspector: deps.inspector,
    scanner: deps.scanner,
    events: deps.events,
  });
  app.post('/chat', proxy);
  app.post('/*', proxy);

  const notAllowed = async () => {
    throw new PalisadeError('METHOD_NOT_ALLOWED', { message: 'The gateway proxies POST requests only', headers: { allow: 'POST' } });
  };
  app.route({ method: [...NOT_PROXIED_METHODS], url: '/chat', handler: notAllowed });
  app.route({ method: [...NOT_PROXIED_METHODS], url: '/*', handler: notAllowed });
  return service;
}
