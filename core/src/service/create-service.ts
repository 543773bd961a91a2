import { timingSafeEqual } from 'node:crypto';
import type { ServerOptions as HttpServerOptions } from 'node:http';
import Fastify, { LogController, type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { Logger } from 'pino';
import { PalisadeError } from '../errors/index.js';
import { createClientErrorHandler, createFrameworkErrorHandler } from './client-errors.js';
import { registerErrorHandling, sendError, type ErrorFormat } from './errors.js';
import { registerHealth, type ReadinessCheck } from './health.js';
import { registerEventLoopMetrics } from './event-loop-metrics.js';
import { createServiceMetrics, instrument, type ServiceMetrics } from './metrics.js';
import { lazyChildLoggerFactory } from './lazy-logger.js';
import { traceIdFor } from './trace.js';
import { activeTracer } from '../telemetry/sdk.js';
import { registerRequestTracing, tracedRequestId } from '../telemetry/server.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set once a request has a trace the spec exposes (the gateway sets it after routing). */
    traceId?: string;
  }
}

export interface ServiceOptions {
  /** Component name: the `service` field of logs and metrics. */
  name: string;
  /** A pino logger to share (the CLI's); otherwise one is made at `logLevel`. */
  logger?: Logger;
  logLevel?: string;
  errorFormat?: ErrorFormat;
  readiness?: Record<string, ReadinessCheck>;
  /** Facts added to the /health/ready answer (the gateway reports the bundle revision it serves). */
  readinessDetails?: () => Record<string, unknown>;
  livenessPaths?: string[];
  bodyLimit?: number;
  /** When set, every route but health and metrics needs this value in X-Internal-Token (DECISIONS.md). */
  internalToken?: string | undefined;
  /** Resources closed after the server stops accepting and in-flight requests finish. */
  closers?: Array<() => Promise<void>>;
  /** Extra fastify server options (timeouts, keep-alive). */
  server?: Partial<Pick<FastifyServerOptions, 'keepAliveTimeout' | 'connectionTimeout' | 'requestTimeout' | 'forceCloseConnections' | 'return503OnClosing'>>;
  /** node's own server options (headersTimeout, connectionsCheckingInterval, maxHeaderSize). */
  http?: Pick<HttpServerOptions, 'headersTimeout' | 'requestTimeout' | 'connectionsCheckingInterval' | 'maxHeaderSize'>;
  /** The answer to a request no route takes (default 404 NOT_FOUND); the gateway answers 405. */
  notFound?: (request: FastifyRequest) => PalisadeError;
  /** The Allow header of a 405 for a method node's parser does not know. */
  allowedMethods?: string;
  processMetrics?: boolean;
  /** palisade_event_loop_delay_seconds (since the previous scrape); the gateway turns it on. */
  eventLoopMetrics?: boolean;
  /** Server spans per request; default: when the OpenTelemetry SDK runs in this process (startTelemetry). */
  tracing?: boolean;
}

export interface Service {
  app: FastifyInstance;
  metrics: ServiceMetrics;
}

const OPEN_PATHS = new Set(['/health/live', '/health/ready', '/health', '/metrics']);

function tokenMatches(sent: string | string[] | undefined, expected: string): boolean {
  const value = Array.isArray(sent) ? sent[0] : sent;
  if (!value) return false;
  const a = Buffer.from(value);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The fastify app every component starts from: health and readiness, Prometheus metrics, JSON logs
 * with the trace id, catalogue error replies and orderly close. Components add their routes to `app`.
 */
export function createService(options: ServiceOptions): Service {
  const format = options.errorFormat ?? 'admin';
  const tracer = options.tracing === false ? undefined : activeTracer(options.name);
  const app = Fastify({
    ...(options.logger
      ? { loggerInstance: options.logger.child({ service: options.name }) }
      : { logger: { level: options.logLevel ?? 'info', base: { service: options.name } } }),
    // With tracing on, an incoming traceparent's trace id is the request's when X-Trace-ID is absent.
    genReqId: tracer ? tracedRequestId : (req) => traceIdFor(req),
    childLoggerFactory: lazyChildLoggerFactory,
    requestIdHeader: false,
    // Per-request access lines are left to metrics; the trace id is still on every log line.
    logController: new LogController({ requestIdLogLabel: 'trace_id', disableRequestLogging: true }),
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    return503OnClosing: true,
    ...options.server,
    ...(options.http ? { http: options.http } : {}),
    clientErrorHandler: createClientErrorHandler({ format, allow: options.allowedMethods }),
    frameworkErrors: createFrameworkErrorHandler((request, reply, error) => sendError(request, reply, error, format)),
  }) as unknown as FastifyInstance;

  // Declared up front: a property added to a built request gives it a second shape, and every site
  // reading requests then handles two.
  app.decorateRequest('traceId', undefined);

  // An empty body with a JSON content type (e.g. POST …/activate from many clients) means "no body",
  // not a syntax error; anything else goes through fastify's poisoning-safe JSON parser.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    return parseJson(request, body as string, done);
  });

  const metrics = createServiceMetrics(options.name, { processMetrics: options.processMetrics ?? false });
  if (options.eventLoopMetrics) {
    const stop = registerEventLoopMetrics(metrics.registry);
    app.addHook('onClose', async () => stop());
  }
  if (tracer) registerRequestTracing(app, tracer);
  registerErrorHandling(app, format, options.notFound);
  instrument(app, metrics);
  registerHealth(app, {
    service: options.name,
    checks: options.readiness ?? {},
    ...(options.readinessDetails ? { details: options.readinessDetails } : {}),
    ...(options.livenessPaths ? { livenessPaths: options.livenessPaths } : {}),
  });

  const token = options.internalToken;
  if (token) {
    app.addHook('onRequest', async (request, reply) => {
      if (OPEN_PATHS.has(request.url.split('?')[0]!)) return;
      if (!tokenMatches(request.headers['x-internal-token'], token)) {
        return sendError(request, reply, new PalisadeError('UNAUTHENTICATED', { message: 'Missing or wrong X-Internal-Token' }), format);
      }
    });
  }

  // Answers sent while closing tell keep-alive clients to drop the socket; otherwise close() would
  // wait for a client's idle connection that was busy when closing began.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  for (const close of options.closers ?? []) app.addHook('onClose', async () => close());
  return { app, metrics };
}
