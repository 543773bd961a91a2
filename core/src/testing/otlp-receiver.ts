// An OTLP/HTTP trace receiver on loopback for tests: it accepts what the OpenTelemetry exporters send
// (POST /v1/traces, protobuf, optionally gzip) and decodes it with protobufjs against the message
// definitions of opentelemetry-proto (collector/trace/v1, trace/v1, common/v1, resource/v1; the fields
// a test reads, with their upstream field numbers).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { gunzipSync } from 'node:zlib';
import protobuf from 'protobufjs';
import { startTelemetry, type Telemetry } from '../telemetry/sdk.js';

const OTLP_TRACE_PROTO = `
syntax = "proto3";
package opentelemetry.proto;
message AnyValue {
  oneof value {
    string string_value = 1;
    bool bool_value = 2;
    int64 int_value = 3;
    double double_value = 4;
    ArrayValue array_value = 5;
    KeyValueList kvlist_value = 6;
    bytes bytes_value = 7;
  }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
message KeyValue { string key = 1; AnyValue value = 2; }
message InstrumentationScope { string name = 1; string version = 2; repeated KeyValue attributes = 3; uint32 dropped_attributes_count = 4; }
message Resource { repeated KeyValue attributes = 1; uint32 dropped_attributes_count = 2; }
message Status { string message = 2; int32 code = 3; }
message Span {
  message Event { fixed64 time_unix_nano = 1; string name = 2; repeated KeyValue attributes = 3; uint32 dropped_attributes_count = 4; }
  message Link { bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; repeated KeyValue attributes = 4; uint32 dropped_attributes_count = 5; fixed32 flags = 6; }
  bytes trace_id = 1;
  bytes span_id = 2;
  string trace_state = 3;
  bytes parent_span_id = 4;
  string name = 5;
  int32 kind = 6;
  fixed64 start_time_unix_nano = 7;
  fixed64 end_time_unix_nano = 8;
  repeated KeyValue attributes = 9;
  uint32 dropped_attributes_count = 10;
  repeated Event events = 11;
  uint32 dropped_events_count = 12;
  repeated Link links = 13;
  uint32 dropped_links_count = 14;
  Status status = 15;
  fixed32 flags = 16;
}
message ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; string schema_url = 3; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; string schema_url = 3; }
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
`;

/** SpanKind of the OTLP proto: 1 internal, 2 server, 3 client. */
export const OTLP_SPAN_KIND = { internal: 1, server: 2, client: 3 } as const;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  name: string;
  kind: number;
  /** Every attribute value flattened to a string, number or boolean (arrays and maps as JSON). */
  attributes: Record<string, string | number | boolean>;
  /** The resource's service.name. */
  service: string;
  scope: string;
  statusCode: number;
  /** Span events' attributes, searched too by a test that looks for leaked text. */
  eventAttributes: Array<Record<string, string | number | boolean>>;
}

export interface OtlpReceiver {
  /** Base URL for OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  spans: ReceivedSpan[];
  /** Content types of the export requests received (an exporter sending JSON would show here). */
  contentTypes: string[];
  /** Resolves once `test` holds on the spans received, or rejects after `timeoutMs`. */
  waitFor(test: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

type Decoded = Record<string, any>;

function valueOf(any: Decoded | undefined): string | number | boolean {
  if (!any) return '';
  if (any.stringValue !== undefined) return any.stringValue as string;
  if (any.boolValue !== undefined) return any.boolValue as boolean;
  if (any.intValue !== undefined) return Number(any.intValue);
  if (any.doubleValue !== undefined) return any.doubleValue as number;
  if (any.bytesValue !== undefined) return Buffer.from(any.bytesValue as Uint8Array).toString('hex');
  if (any.arrayValue) return JSON.stringify((any.arrayValue.values ?? []).map(valueOf));
  if (any.kvlistValue) return JSON.stringify(attributesOf(any.kvlistValue.values));
  return '';
}

function attributesOf(list: Decoded[] | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const kv of list ?? []) out[kv.key as string] = valueOf(kv.value as Decoded | undefined);
  return out;
}

const hex = (bytes: Uint8Array | undefined) => (bytes && bytes.length ? Buffer.from(bytes).toString('hex') : '');

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  return req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const root = protobuf.parse(OTLP_TRACE_PROTO, { keepCase: false }).root;
  const ExportRequest = root.lookupType('opentelemetry.proto.ExportTraceServiceRequest');
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  const waiters = new Set<() => void>();

  const server: Server = createServer((req, res) => {
    void (async () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      contentTypes.push(String(req.headers['content-type'] ?? ''));
      const message = ExportRequest.toObject(ExportRequest.decode(await bodyOf(req)), { longs: String, bytes: Array, defaults: false }) as Decoded;
      for (const resourceSpans of message.resourceSpans ?? []) {
        const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name'] ?? '');
        for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
          for (const span of scopeSpans.spans ?? []) {
            spans.push({
              traceId: hex(span.traceId),
              spanId: hex(span.spanId),
              parentSpanId: hex(span.parentSpanId),
              name: span.name ?? '',
              kind: span.kind ?? 0,
              attributes: attributesOf(span.attributes),
              service,
              scope: scopeSpans.scope?.name ?? '',
              statusCode: span.status?.code ?? 0,
              eventAttributes: (span.events ?? []).map((e: Decoded) => attributesOf(e.attributes)),
            });
          }
        }
      }
      // An empty ExportTraceServiceResponse: full success.
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      for (const wake of waiters) wake();
    })().catch(() => {
      if (!res.headersSent) res.writeHead(400).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;

  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    contentTypes,
    waitFor(test, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!test(spans)) return;
          cleanup();
          resolve(spans);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`the expected spans did not arrive within ${timeoutMs} ms (${spans.length} received: ${spans.map((s) => s.name).join(', ')})`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A receiver and this process's SDK exporting to it (batches every 50 ms), configured through the
 * standard OTEL_* variables as a deployment is. The SDK starts once per process, so a test file uses
 * this once. Both stop when the test ends.
 */
export async function startTracedProcess(
  t: { teardown(fn: () => unknown): void },
  options: { serviceName: string; sampler: string; samplerArg?: string; env?: Record<string, string> },
): Promise<{ receiver: OtlpReceiver; telemetry: Telemetry | null }> {
  const receiver = await startOtlpReceiver();
  t.teardown(() => receiver.close());
  Object.assign(process.env, {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_TRACES_SAMPLER: options.sampler,
    ...(options.samplerArg === undefined ? {} : { OTEL_TRACES_SAMPLER_ARG: options.samplerArg }),
    OTEL_BSP_SCHEDULE_DELAY: '50',
    ...options.env,
  });
  const telemetry = await startTelemetry({ serviceName: options.serviceName });
  t.teardown(() => telemetry?.shutdown());
  return { receiver, telemetry };
}
