// The OTLP/HTTP exporter against a collector started here (a real HTTP peer on loopback): what a batch
// POST sends, how it retries, what it gives up on; the worker transport; and the exporter built from
// the OTEL_EXPORTER_OTLP_* variables delivering spans the test receiver decodes.
import t from 'tap';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { startOtlpReceiver } from '../testing/otlp-receiver.js';
import { Agent } from 'undici';
import { createOtlpTraceExporter, createOtlpWorkerTransport } from './otlp-exporter.js';
import { postOtlpBatch, type OtlpPost } from './otlp-post.js';
import { workerOtlpProtocol } from './sdk.js';

interface Received {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A collector answering each POST with the next of `answers` (then 200). */
async function collector(t: { teardown(fn: () => unknown): void }, answers: Array<{ status: number; headers?: Record<string, string> }>) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      const answer = answers.shift() ?? { status: 200 };
      res.writeHead(answer.status, answer.headers).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1/traces`, received };
}

const post = (url: string, extra: Partial<OtlpPost> = {}): OtlpPost => ({
  url,
  headers: { 'Content-Type': 'application/x-protobuf', 'x-collector-key': 'k1' },
  compression: 'none',
  ...extra,
});
const fast = { initialMs: 10, maxMs: 50 };

function agent(t: { teardown(fn: () => unknown): void }): Agent {
  const dispatcher = new Agent();
  t.teardown(() => dispatcher.close());
  return dispatcher;
}

t.test('a batch is posted with the configured headers and user agent', async (t) => {
  const peer = await collector(t, []);
  const result = await postOtlpBatch(post(peer.url, { userAgent: 'gateway/1' }), agent(t), Uint8Array.from([1, 2, 3]), 5_000);
  t.equal(result.status, 'success');
  t.equal(peer.received.length, 1);
  t.same([...peer.received[0]!.body], [1, 2, 3]);
  t.equal(peer.received[0]!.headers['content-type'], 'application/x-protobuf');
  t.equal(peer.received[0]!.headers['x-collector-key'], 'k1');
  t.match(peer.received[0]!.headers['user-agent'], /^gateway\/1 palisade-otlp-exporter$/);
});

t.test('gzip compression sends the batch compressed', async (t) => {
  const peer = await collector(t, []);
  t.equal((await postOtlpBatch(post(peer.url, { compression: 'gzip' }), agent(t), Buffer.from('spans'), 5_000)).status, 'success');
  t.equal(peer.received[0]!.headers['content-encoding'], 'gzip');
  t.equal(gunzipSync(peer.received[0]!.body).toString(), 'spans');
});

t.test("a busy collector is tried again, after its Retry-After or the backoff; a refusal is not", async (t) => {
  const busy = await collector(t, [{ status: 503, headers: { 'retry-after': '0' } }, { status: 429 }]);
  t.equal((await postOtlpBatch(post(busy.url), agent(t), Buffer.from('x'), 5_000, fast)).status, 'success');
  t.equal(busy.received.length, 3, '503, 429, then 200');

  const refusing = await collector(t, [{ status: 400 }]);
  const refused = await postOtlpBatch(post(refusing.url), agent(t), Buffer.from('x'), 5_000, fast);
  t.equal(refused.status, 'failure');
  t.match(refused.status === 'failure' ? refused.message : '', /HTTP 400/);
  t.equal(refusing.received.length, 1, 'no retry of a 400');
});

t.test('an unreachable collector is retryable, and the retries stop at the deadline', async (t) => {
  const peer = await collector(t, []);
  const closedPort = peer.url.replace(/:\d+\//, ':1/');
  const started = Date.now();
  const result = await postOtlpBatch(post(closedPort), agent(t), Buffer.from('x'), 400, { initialMs: 50 });
  t.equal(result.status, 'retryable');
  t.ok(Date.now() - started < 2_000, 'gave up within the export timeout');
});

t.test('the worker transport: batches sent from its thread, the result back under their id', async (t) => {
  const peer = await collector(t, [{ status: 400 }]);
  const transport = createOtlpWorkerTransport({ url: peer.url, headers: async () => ({ 'x-collector-key': 'k2' }), compression: 'none' });
  t.teardown(() => transport.shutdown());
  const [refused, accepted] = await Promise.all([transport.send(Buffer.from('one'), 5_000), transport.send(Buffer.from('two'), 5_000)]);
  t.equal(refused.status, 'failure');
  t.equal(accepted.status, 'success');
  t.same(peer.received.map((r) => r.body.toString()).sort(), ['one', 'two']);
  t.equal(peer.received[0]!.headers['x-collector-key'], 'k2', 'the headers resolved on this side travel with the batch');
});

t.test('the exporter built from the environment delivers spans; https keeps the SDK exporter', async (t) => {
  const receiver = await startOtlpReceiver();
  t.teardown(() => receiver.close());
  const saved = { ...process.env };
  t.teardown(() => {
    process.env = saved;
  });
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url;
  const exporter = createOtlpTraceExporter('http/protobuf');
  t.ok(exporter, 'plain http: the worker exporter');
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter!)] });
  t.teardown(() => provider.shutdown());
  provider.getTracer('probe').startSpan('probe.work', { attributes: { 'palisade.stage': 'one' } }).end();
  const [span] = await receiver.waitFor((spans) => spans.some((s) => s.name === 'probe.work'));
  t.match(span, { name: 'probe.work', attributes: { 'palisade.stage': 'one' } });
  t.same(receiver.contentTypes, ['application/x-protobuf']);

  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = 'https://collector.example:4318';
  t.equal(createOtlpTraceExporter('http/protobuf'), undefined, 'https: the SDK exporter, which reads the certificate variables');
});

t.test("a shutdown's last batch goes out before the process ends", async (t) => {
  const receiver = await startOtlpReceiver();
  t.teardown(() => receiver.close());
  const exporterModule = new URL('./otlp-exporter.js', import.meta.url).href;
  const sdkModule = import.meta.resolve('@opentelemetry/sdk-trace-base');
  const script = `
    const { createOtlpTraceExporter } = await import(${JSON.stringify(exporterModule)});
    const { BasicTracerProvider, BatchSpanProcessor } = await import(${JSON.stringify(sdkModule)});
    const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(createOtlpTraceExporter('http/protobuf'))] });
    provider.getTracer('probe').startSpan('last.words').end();
    await provider.shutdown();`;
  // A file, not --eval: the worker thread inherits the process's flags, and --input-type refuses a file.
  const dir = mkdtempSync(join(tmpdir(), 'palisade-otlp-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'shutdown.mjs');
  writeFileSync(file, script);
  const child = spawn(process.execPath, [file], { env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }, stdio: 'inherit' });
  const [code] = (await once(child, 'exit')) as [number | null];
  t.equal(code, 0, 'the process ended normally');
  await receiver.waitFor((spans) => spans.some((s) => s.name === 'last.words'), 2_000);
  t.pass('the span arrived');
});

t.test('which exporter settings the worker exporter serves', async (t) => {
  t.equal(workerOtlpProtocol({}), 'http/protobuf', 'the default: OTLP over HTTP with protobuf');
  t.equal(workerOtlpProtocol({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }), 'http/json');
  t.equal(workerOtlpProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' }), 'http/protobuf', 'the traces setting wins');
  t.equal(workerOtlpProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }), undefined);
  t.equal(workerOtlpProtocol({ OTEL_TRACES_EXPORTER: 'zipkin' }), undefined);
  t.equal(workerOtlpProtocol({ OTEL_TRACES_EXPORTER: 'otlp,console' }), undefined, 'several exporters: the SDK builds them');
});
