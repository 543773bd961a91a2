// The server span of every request a component answers: it continues an incoming W3C traceparent,
// otherwise starts a trace whose id is the request's UUID trace id. Its context is kept on the request
// (request.traceContext) and handed explicitly to each stage and outgoing call, which make child spans
// only when the trace is sampled and pass traceparent on either way. The sampler decides first: a
// request it does not sample gets no SDK span and no context object, only its trace id, and the services
// it calls get a traceparent with flag 00 under a fresh span id (W3C trace context allows it).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { context, isSpanContextValid, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags, type Attributes, type Context, type Link, type Span, type SpanKind as Kind, type TraceState, type Tracer } from '@opentelemetry/api';
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

/** The part of the SDK's Sampler interface the request hook calls (sdk-trace-base's Sampler). */
export interface RequestSampler {
  shouldSample(context: Context, traceId: string, spanName: string, spanKind: Kind, attributes: Attributes, links: Link[]): { decision: number };
}

/** sdk-trace-base's SamplingDecision.RECORD_AND_SAMPLED (the enum is not imported: the SDK loads on demand). */
const RECORD_AND_SAMPLED = 2;

/**
 * The sampler the SDK's tracer was configured with (OTEL_TRACES_SAMPLER / _ARG), so a request is decided
 * before its span exists. The SDK keeps it in a private field; undefined (every request gets a span, as
 * before) if a later SDK moves it.
 */
export function samplerOf(tracer: Tracer): RequestSampler | undefined {
  const sampler = (tracer as { _sampler?: Partial<RequestSampler> })._sampler;
  return typeof sampler?.shouldSample === 'function' ? (sampler as RequestSampler) : undefined;
}

// Ids of unsampled requests need to be unique, not secret (as the SDK's RandomIdGenerator): Math.random
// avoids a crypto call per request, and it runs only when such a request calls another service.
const HEX = '0123456789abcdef';
function randomHex(digits: number): string {
  let id = '';
  for (let i = 0; i < digits; i++) id += HEX[(Math.random() * 16) | 0];
  return /^0+$/.test(id) ? randomHex(digits) : id;
}

/**
 * The context of a request the sampler did not sample: just its trace id (and an incoming tracestate)
 * until something reads it, which only a traceparent for an outgoing call does; then one non-recording
 * span context with a fresh span id and flag 00 is made, once per request.
 */
export class UnsampledTraceContext implements Context {
  private made: Context | undefined;
  constructor(
    readonly traceId: string,
    private readonly traceState?: TraceState,
  ) {}
  private context(): Context {
    return (this.made ??= trace.setSpanContext(ROOT_CONTEXT, {
      traceId: this.traceId,
      spanId: randomHex(16),
      traceFlags: TraceFlags.NONE,
      ...(this.traceState ? { traceState: this.traceState } : {}),
    }));
  }
  getValue(key: symbol): unknown {
    return this.context().getValue(key);
  }
  setValue(key: symbol, value: unknown): Context {
    return this.context().setValue(key, value);
  }
  deleteValue(key: symbol): Context {
    return this.context().deleteValue(key);
  }
}

/** Whether `ctx` belongs to a sampled trace (its stages then get spans). */
export function isSampled(ctx: Context | undefined): ctx is Context {
  return ctx !== undefined && !(ctx instanceof UnsampledTraceContext) && trace.getSpan(ctx)?.isRecording() === true;
}

/** Adds the server span hooks to a component's app (only when tracing is on). */
export function registerRequestTracing(app: FastifyInstance, tracer: Tracer, sampler: RequestSampler | undefined = samplerOf(tracer)): void {
  const finish = (request: FastifyRequest, span: Span, status: number | undefined) => {
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

  // Declared up front, so every request object is built with it: set later, it gave the traced
  // process's requests a second shape and made every site reading a request slower.
  app.decorateRequest('traceContext', undefined);
  // The headers the configured propagators read (traceparent, tracestate, baggage by default).
  const fields = propagation.fields();
  app.addHook('onRequest', (request, reply, done) => {
    // Only a request carrying one pays for extracting it (ParentBased samplers honour its sampled flag).
    const parent = fields.some((field) => request.headers[field] !== undefined) ? propagation.extract(ROOT_CONTEXT, request.headers) : ROOT_CONTEXT;
    const remote = trace.getSpanContext(parent);
    const continued = remote !== undefined && isSpanContextValid(remote);
    // Without a valid traceparent the new trace takes the request's UUID trace id (X-Trace-ID or new).
    const traceId = continued ? remote.traceId : (otelTraceIdOf(request.id) ?? randomHex(32));
    if (sampler && sampler.shouldSample(parent, traceId, request.method, SpanKind.SERVER, {}, []).decision !== RECORD_AND_SAMPLED) {
      request.traceContext = new UnsampledTraceContext(traceId, continued ? remote.traceState : undefined);
      return done();
    }
    // The id generator reads the wanted trace id from the context active during startSpan.
    const start = continued ? parent : parent.setValue(REQUESTED_TRACE_ID, traceId);
    const span = context.with(start, () =>
      tracer.startSpan(request.method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': request.method, 'palisade.trace_id': request.id } }, start),
    );
    request.traceContext = trace.setSpan(parent, span);
    // Log lines of a sampled request name its span (an unsampled one keeps the lazy logger).
    if (span.isRecording()) request.log = request.log.child({ span_id: span.spanContext().spanId });
    // The response's close (after the answer's end, or when the client left first) ends the span: a
    // listener per sampled request rather than onResponse and onRequestAbort hooks, which fastify would
    // run on every request, sampled or not.
    const response = reply.raw;
    response.once('close', () => finish(request, span, response.writableFinished ? response.statusCode : undefined));
    done();
  });
}

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
  if (!tracer || !isSampled(parent)) return work(parent, undefined);
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

/**
 * Background work with no request to continue (a bundle download): the root of its own trace, sampled
 * by the SDK's sampler like a request without traceparent. `work` gets the context whose traceparent
 * its calls carry, and the span when it records.
 */
export async function inRootSpan<T>(
  tracer: Tracer | undefined,
  name: string,
  work: (ctx: Context | undefined, span: Span | undefined) => Promise<T>,
  options: StageSpanOptions = {},
): Promise<T> {
  if (!tracer) return work(undefined, undefined);
  const span = tracer.startSpan(name, options, ROOT_CONTEXT);
  const recording = span.isRecording() ? span : undefined;
  try {
    return await work(trace.setSpan(ROOT_CONTEXT, span), recording);
  } catch (error) {
    if (recording) failSpan(recording, error);
    throw error;
  } finally {
    span.end();
  }
}

/** inSpan for synchronous stages. */
export function inSpanSync<T>(tracer: Tracer | undefined, parent: Context | undefined, name: string, work: (ctx: Context | undefined) => T, options: StageSpanOptions = {}): T {
  if (!tracer || !isSampled(parent)) return work(parent);
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
