// The server span of every request a component answers: it continues an incoming W3C traceparent,
// otherwise starts a trace whose id is the request's UUID trace id, and stays the active context for
// the handler so the spans and outgoing calls made there are its children.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { context, isSpanContextValid, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span, type Tracer } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { otelTraceIdOf, REQUESTED_TRACE_ID, uuidOfTraceId } from './sdk.js';

// Same rule as trace.ts: a client-sent id is kept only when it is a reasonable token.
const TRACE_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;

/**
 * The request's trace id with tracing on: X-Trace-ID when well-formed, else the trace id of an incoming
 * traceparent written as a UUID, else a new UUID.
 */
export function tracedRequestId(request: IncomingMessage): string {
  const sent = request.headers['x-trace-id'];
  const value = Array.isArray(sent) ? sent[0] : sent;
  if (value && TRACE_ID.test(value)) return value;
  const parent = request.headers.traceparent;
  const match = typeof parent === 'string' ? TRACEPARENT.exec(parent.trim()) : null;
  if (match && !/^0+$/.test(match[1]!)) return uuidOfTraceId(match[1]!);
  return randomUUID();
}

/** Adds the server span hooks to a component's app (only when tracing is on). */
export function registerRequestTracing(app: FastifyInstance, tracer: Tracer): void {
  const spans = new WeakMap<FastifyRequest, Span>();
  const finish = (request: FastifyRequest, status: number | undefined) => {
    const span = spans.get(request);
    if (!span) return;
    spans.delete(request);
    const route = request.routeOptions.url;
    if (route) {
      span.updateName(`${request.method} ${route}`);
      span.setAttribute('http.route', route);
    }
    if (status === undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: 'the client closed the connection' });
    else {
      span.setAttribute('http.response.status_code', status);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end();
  };

  app.addHook('onRequest', (request, _reply, done) => {
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const remote = trace.getSpanContext(parent);
    const wanted = otelTraceIdOf(request.id);
    // Without a valid traceparent the new trace takes the request's UUID trace id (X-Trace-ID or new).
    const start = remote && isSpanContextValid(remote) ? parent : wanted ? parent.setValue(REQUESTED_TRACE_ID, wanted) : parent;
    const span = context.with(start, () =>
      tracer.startSpan(request.method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': request.method, 'palisade.trace_id': request.id } }, start),
    );
    spans.set(request, span);
    const active = trace.setSpan(parent, span);
    // The body arrives on the request stream's events, outside this hook's async context: bound here.
    context.bind(active, request.raw);
    context.with(active, done);
  });
  app.addHook('onResponse', (request, reply, done) => {
    finish(request, reply.statusCode);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    finish(request, undefined);
    done();
  });
}

/** Runs `work` in a child span of the active one (or plainly, when tracing is off). */
export async function inSpan<T>(tracer: Tracer | undefined, name: string, work: (span: Span | undefined) => Promise<T>, attributes?: Record<string, string | number | boolean>): Promise<T> {
  if (!tracer) return work(undefined);
  return tracer.startActiveSpan(name, attributes ? { attributes } : {}, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      failSpan(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** inSpan for synchronous stages. */
export function inSpanSync<T>(tracer: Tracer | undefined, name: string, work: (span: Span | undefined) => T, attributes?: Record<string, string | number | boolean>): T {
  if (!tracer) return work(undefined);
  return tracer.startActiveSpan(name, attributes ? { attributes } : {}, (span) => {
    try {
      return work(span);
    } catch (error) {
      failSpan(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Marks a failed span with the catalogue code only: an error message can quote request content. */
function failSpan(span: Span, error: unknown): void {
  const code = typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : 'ERROR';
  span.setStatus({ code: SpanStatusCode.ERROR, message: code });
  span.setAttribute('error.type', code);
}

/** The active span's ids for log lines (pino's mixin), empty outside a traced request. */
export function activeSpanLogFields(): { span_id?: string } {
  const span = trace.getActiveSpan();
  return span ? { span_id: span.spanContext().spanId } : {};
}

/** Adds W3C traceparent (and tracestate) of the active span to outgoing headers; the same object when none. */
export function withTraceHeaders<H extends Record<string, string>>(headers: H): H {
  if (!trace.getActiveSpan()) return headers;
  const copy = { ...headers };
  propagation.inject(context.active(), copy);
  return copy;
}
