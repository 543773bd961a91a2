export * from './sdk.js';
export * from './server.js';
export { SpanKind, SpanStatusCode, trace as otelTrace, type Span, type Tracer } from '@opentelemetry/api';
