// The server span of every request a component answers: it continues an incoming W3C traceparent,
// otherwise starts a trace whose id is the request's UUID trace id. Its context is kept on the request
// (request.traceContext) and handed explicitly to each stage and outgoing call, which make child spans
// only when the trace is sampled and pass traceparent on either way.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { context, isSpanContextValid, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span, type SpanKind as Kind, type Tracer } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { otelTraceIdOf, REQUESTED_TRACE_ID, uuidOfTraceId } from './sdk.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** With traces on: the context of the request's server span, parent of its stages' spans. */
    traceContext?: Context;
  }
}

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
    // Without a valid traceparent the new trace takes the request's UUID trace id (X-Trace-ID or new);
    // the id generator reads it from the context active during startSpan.
    const start = remote && isSpanContextValid(remote) ? parent : wanted ? parent.setValue(REQUESTED_TRACE_ID, wanted) : parent;
    const span = context.with(start, () =>
      tracer.startSpan(request.method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': request.method, 'palisade.trace_id': request.id } }, start),
    );
    spans.set(request, span);
    request.traceContext = trace.setSpan(parent, span);
    // Log lines of a sampled request name its span (an unsampled one keeps the lazy logger).
    if (span.isRecording()) request.log = request.log.child({ span_id: span.spanContext().spanId });
    done();
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

const sampled = (parent: Context) => trace.getSpan(parent)?.isRecording() === true;

export interface StageSpanOptions {
  attributes?: Record<string, string | number | boolean>;
  kind?: Kind;
}

/**
 * Runs `work` in a child span of `parent` when the trace is sampled; `work` gets the context to hand on
 * (the child's, else the parent's, so traceparent still carries the sampling decision) and the span.
 */
export async function inSpan<T>(
  tracer: Tracer | undefined,
  parent: Context | undefined,
  name: string,
  work: (ctx: Context | undefined, span: Span | undefined) => Promise<T>,
  options: StageSpanOptions = {},
): Promise<T> {
  if (!tracer || !parent || !sampled(parent)) return work(parent, undefined);
  const span = tracer.startSpan(name, options, parent);
  try {
    return await work(trace.setSpan(parent, span), span);
  } catch (error) {
    failSpan(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/** inSpan for synchronous stages. */
export function inSpanSync<T>(tracer: Tracer | undefined, parent: Context | undefined, name: string, work: (ctx: Context | undefined) => T, options: StageSpanOptions = {}): T {
  if (!tracer || !parent || !sampled(parent)) return work(parent);
  const span = tracer.startSpan(name, options, parent);
  try {
    return work(trace.setSpan(parent, span));
  } catch (error) {
    failSpan(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/** Marks a failed span with the catalogue code only: an error message can quote request content. */
function failSpan(span: Span, error: unknown): void {
  const code = typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : 'ERROR';
  span.setStatus({ code: SpanStatusCode.ERROR, message: code });
  span.setAttribute('error.type', code);
}

/** Adds W3C traceparent (and tracestate) of `ctx` to outgoing headers; the same object without one. */
export function withTraceHeaders<H extends Record<string, string>>(headers: H, ctx: Context | undefined): H {
  if (!ctx) return headers;
  const copy = { ...headers };
  propagation.inject(ctx, copy);
  return copy;
}
