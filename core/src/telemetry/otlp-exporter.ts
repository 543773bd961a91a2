// The OTLP/HTTP trace exporter of a Palisade process: the SDK's own exporter pieces (configuration from
// the OTEL_EXPORTER_OTLP_* variables, the protobuf or JSON serializer, the bounded export queue), with
// a transport that hands each serialized batch to a worker thread, which POSTs it (otlp-post.ts).
//
// Why a thread: an HTTP client on the main thread shares node's (or undici's) code with the requests
// the process serves and makes, and V8 then optimises that code for both. CPU profiles of a traced and
// an untraced gateway side by side showed the SDK's node:http transport making every answer about
// 2 µs dearer (ServerResponse's writeHead and OutgoingMessage's constructor), and a main-thread undici
// transport made the gateway's upstream calls dearer in the same way.
import { Worker } from 'node:worker_threads';
import { diag } from '@opentelemetry/api';
import { OTLPExporterBase, createOtlpNetworkExportDelegate, type ExportResponse, type IExporterTransport } from '@opentelemetry/otlp-exporter-base';
import { convertLegacyHttpOptions } from '@opentelemetry/otlp-exporter-base/node-http';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { OtlpExportMessage } from './otlp-export-worker.js';
import type { OtlpPostResult } from './otlp-post.js';

const WORKER = new URL('./otlp-export-worker.js', import.meta.url);

/** The SDK's OTLP/HTTP configuration, as far as the transport reads it. */
export interface OtlpTransportConfig {
  url: string;
  headers: () => Promise<Record<string, string>>;
  compression: 'gzip' | 'none';
  userAgent?: string | undefined;
}

function exportResponse(result: OtlpPostResult): ExportResponse {
  switch (result.status) {
    case 'success':
      return result.data ? { status: 'success', data: result.data } : { status: 'success' };
    case 'failure':
      return { status: 'failure', error: new Error(result.message) };
    default:
      return { status: 'retryable', ...(result.retryInMillis === undefined ? {} : { retryInMillis: result.retryInMillis }), ...(result.message ? { error: new Error(result.message) } : {}) };
  }
}

/**
 * The transport: batches go to one worker thread, started with the first. The worker keeps the process
 * alive only while a batch is in flight (as the SDK's own HTTP request would), so the last batches of a
 * shutdown still go out; a worker that stopped fails the batches it held (the SDK counts them dropped)
 * and is started again by the next.
 */
export function createOtlpWorkerTransport(config: OtlpTransportConfig): IExporterTransport {
  let worker: Worker | undefined;
  const pending = new Map<number, (result: ExportResponse) => void>();
  let nextId = 0;
  const start = (): Worker => {
    const started = new Worker(WORKER);
    started.unref();
    started.on('message', ({ id, result }: { id: number; result: OtlpPostResult }) => {
      const settle = pending.get(id);
      pending.delete(id);
      if (pending.size === 0) started.unref();
      settle?.(exportResponse(result));
    });
    let failure = '';
    // Reported as the SDK reports a failed export (OpenTelemetry's diag logger, OTEL_LOG_LEVEL).
    started.on('error', (error) => {
      failure = `: ${error.message}`;
      diag.error(`the OTLP export worker failed${failure}`);
    });
    started.on('exit', (code) => {
      if (worker === started) worker = undefined;
      for (const settle of pending.values()) settle({ status: 'failure', error: new Error(`the OTLP export worker stopped (exit code ${code})${failure}`) });
      pending.clear();
    });
    return started;
  };
  return {
    async send(data: Uint8Array, timeoutMillis: number): Promise<ExportResponse> {
      const post = { url: config.url, headers: await config.headers(), compression: config.compression, userAgent: config.userAgent };
      const target = (worker ??= start());
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        target.ref();
        target.postMessage({ id, post, data, timeoutMs: timeoutMillis } satisfies OtlpExportMessage);
      });
    },
    shutdown(): void {
      void worker?.terminate();
      worker = undefined;
    },
  };
}

export type OtlpHttpProtocol = 'http/protobuf' | 'http/json';

/**
 * The OTLP/HTTP trace exporter configured from the environment as the SDK's would be (endpoint,
 * headers, timeout, compression), sending from the worker; undefined when the endpoint is not plain
 * http: an https endpoint keeps the SDK's exporter, which reads the certificate variables into its agent.
 */
export function createOtlpTraceExporter(protocol: OtlpHttpProtocol): SpanExporter | undefined {
  const json = protocol === 'http/json';
  const config = convertLegacyHttpOptions({}, 'TRACES', 'v1/traces', { 'Content-Type': json ? 'application/json' : 'application/x-protobuf' });
  if (new URL(config.url).protocol !== 'http:') return undefined;
  const delegate = createOtlpNetworkExportDelegate(config, json ? JsonTraceSerializer : ProtobufTraceSerializer, createOtlpWorkerTransport(config));
  return new OTLPExporterBase<ReadableSpan[]>(delegate);
}
