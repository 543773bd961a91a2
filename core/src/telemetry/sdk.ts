// Traces of every component through the OpenTelemetry Node SDK, configured by the standard OTEL_*
// variables (endpoint, protocol, service name, sampler, resource attributes). Off unless an exporter is
// named: then no SDK is loaded, no hook is added and nothing is paid per request.
import { context, createContextKey, ProxyTracerProvider, ROOT_CONTEXT, trace, type Context, type ContextManager, type Tracer } from '@opentelemetry/api';

/** A span context handed along a request (the OpenTelemetry Context). */
export type TraceContext = Context;

/** The trace id a root span must take (a request's UUID trace id), read by the id generator below. */
export const REQUESTED_TRACE_ID = createContextKey('palisade.requested_trace_id');

export interface Telemetry {
  /** Flushes the spans still queued and stops the exporter. */
  shutdown(): Promise<void>;
}

const enabledValue = (value: string | undefined) => value !== undefined && value.trim() !== '';

/** The exporters OTEL_TRACES_EXPORTER names, lower-cased (none when unset). */
function traceExportersOf(env: NodeJS.ProcessEnv): string[] {
  return env.OTEL_TRACES_EXPORTER?.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean) ?? [];
}

/**
 * On when OTEL_EXPORTER_OTLP_ENDPOINT (or its traces form) is set or OTEL_TRACES_EXPORTER names an
 * exporter other than none; OTEL_SDK_DISABLED=true wins.
 */
export function tracingRequested(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporters = traceExportersOf(env);
  if (exporters.includes('none')) return false;
  return exporters.length > 0 || enabledValue(env.OTEL_EXPORTER_OTLP_ENDPOINT) || enabledValue(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/**
 * The OTLP/HTTP protocol when OTLP is the only trace exporter asked for (OTEL_TRACES_EXPORTER unset or
 * `otlp`) and its protocol is HTTP (protobuf, the default, or JSON); undefined otherwise (gRPC, Zipkin,
 * console, several exporters), which the SDK then builds itself.
 */
export function workerOtlpProtocol(env: NodeJS.ProcessEnv): 'http/protobuf' | 'http/json' | undefined {
  const exporters = [...new Set(traceExportersOf(env))];
  if (exporters.length > 1 || (exporters.length === 1 && exporters[0] !== 'otlp')) return undefined;
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim() || env.OTEL_EXPORTER_OTLP_PROTOCOL?.trim() || 'http/protobuf').toLowerCase();
  return protocol === 'http/protobuf' || protocol === 'http/json' ? protocol : undefined;
}

export interface IdGenerator {
  generateTraceId(): string;
  generateSpanId(): string;
}

/**
 * `random`'s ids (the SDK's RandomIdGenerator: ids need to be unique, not secret, and crypto.randomBytes
 * per span was the largest cost of tracing), except that a root span started inside a context carrying
 * REQUESTED_TRACE_ID takes that trace id: the SDK gives its id generator no context, so the one active
 * during startSpan carries it.
 */
export function createRequestTraceIds(random: IdGenerator): IdGenerator {
  return {
    generateTraceId(): string {
      const requested = context.active().getValue(REQUESTED_TRACE_ID);
      return typeof requested === 'string' ? requested : random.generateTraceId();
    },
    generateSpanId: () => random.generateSpanId(),
  };
}

/**
 * Carries a context through one synchronous call only. Contexts are passed explicitly along a request
 * (request.traceContext, the stages' parameters): the SDK's default AsyncLocalStorage manager would make
 * every promise of the process pay an async hook on Node 20, traced or not.
 */
export class SyncContextManager implements ContextManager {
  private stack: Context[] = [];
  active(): Context {
    return this.stack.at(-1) ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(ctx: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    this.stack.push(ctx);
    try {
      return fn.call(thisArg, ...args);
    } finally {
      this.stack.pop();
    }
  }
  bind<T>(_ctx: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.stack = [];
    return this;
  }
}

/**
 * Starts the SDK when the environment asks for traces (the process's one tracer provider: components in
 * one process share it). Returns null when tracing is off. The SDK reads process.env itself; `env`
 * only decides whether to load it.
 */
export async function startTelemetry(options: { env?: NodeJS.ProcessEnv; serviceName?: string } = {}): Promise<Telemetry | null> {
  const env = options.env ?? process.env;
  if (!tracingRequested(env)) return null;
  // Loaded on demand: the SDK and its exporters cost start-up time and memory a process without traces skips.
  const [{ NodeSDK }, { RandomIdGenerator, BatchSpanProcessor }] = await Promise.all([import('@opentelemetry/sdk-node'), import('@opentelemetry/sdk-trace-base')]);
  // OTLP over plain HTTP, the usual collector set-up, is sent from a worker thread (otlp-exporter.ts);
  // any other exporter or protocol is built by the SDK from the same variables.
  const protocol = workerOtlpProtocol(process.env);
  const exporter = protocol ? (await import('./otlp-exporter.js')).createOtlpTraceExporter(protocol) : undefined;
  const sdk = new NodeSDK({
    ...(exporter ? { spanProcessors: [new BatchSpanProcessor(exporter)] } : {}),
    ...(env.OTEL_SERVICE_NAME ? {} : options.serviceName ? { serviceName: options.serviceName } : {}),
    idGenerator: createRequestTraceIds(new RandomIdGenerator()),
    contextManager: new SyncContextManager(),
    instrumentations: [],
    // Prometheus stays the metrics path, and logs go to stdout with trace_id/span_id.
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}

/** The tracer of a component when the SDK runs in this process; undefined when tracing is off. */
export function activeTracer(name: string): Tracer | undefined {
  const provider = trace.getTracerProvider();
  // The API answers with a proxy whose delegate is its shared no-op provider until an SDK registers.
  if (provider instanceof ProxyTracerProvider && provider.getDelegate() === new ProxyTracerProvider().getDelegate()) return undefined;
  return trace.getTracer(`palisade.${name}`);
}

const isHexDigit = (c: number) => (c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 102);

/**
 * A UUID trace id as an OpenTelemetry trace id (32 lower-case hex digits), else undefined. Every
 * request of a traced process asks, sampled or not: a loop and five slices cost a quarter of the
 * case-insensitive regex and replaceAll they replace.
 */
export function otelTraceIdOf(traceId: string): string | undefined {
  if (traceId.length !== 36) return undefined;
  for (let i = 0; i < 36; i++) {
    const c = traceId.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23 ? c !== 45 : !isHexDigit(c)) return undefined;
  }
  return (traceId.slice(0, 8) + traceId.slice(9, 13) + traceId.slice(14, 18) + traceId.slice(19, 23) + traceId.slice(24)).toLowerCase();
}

/** An OpenTelemetry trace id written as the UUID the gateway's headers and events use. */
export function uuidOfTraceId(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
