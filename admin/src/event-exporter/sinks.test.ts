// Each sink against a real peer on 127.0.0.1, asserting the bytes the peer received.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { createSecretBox } from '@palisade/core';
import { createSink } from './create-sink.js';
import { createFileLocks } from './file-sink.js';
import { mapEvent } from './mapping.js';
import { DeliveryError, type ExportItem } from './sink.js';
import { createSyslogSink } from './syslog-sink.js';
import { closedPort, exporterRecord, sampleEvent, selfSignedCert, startStreamReceiver, startUdpReceiver, startWebhookReceiver } from '../testing/exporter-peers.js';

const secrets = createSecretBox('exporter-test-key');
const locks = createFileLocks();
const origin = { hostname: 'exp-host', procId: '7' };
const item = (overrides = {}): ExportItem => {
  const event = sampleEvent(overrides);
  return { event, mapped: mapEvent(event, { field_mapping: 'generic', custom_mapping: {} }) };
};
const SYSLOG_LINE = (e: ExportItem) =>
  `<130>1 2024-05-01T10:15:02.123Z exp-host palisade 7 JAILBREAK_DETECTED [palisade@32473 event_id="${e.event.id}" trace_id="${e.event.trace_id}" tenant_id="acme" severity="CRITICAL"] \uFEFF${JSON.stringify(e.mapped)}`;

t.test('syslog over UDP: one RFC 5424 message per datagram', async (t) => {
  const peer = await startUdpReceiver();
  t.teardown(() => peer.close());
  const config = exporterRecord({ type: 'syslog', config: { address: `127.0.0.1:${peer.port}`, transport: 'udp' } });
  if (config.type !== 'syslog') throw new Error('type');
  const sink = createSyslogSink(config.config, origin);
  t.teardown(() => sink.close());
  const items = [item({ trace_id: 'u1' }), item({ trace_id: 'u2' })];
  await sink.send(items);
  const got = await peer.waitFor(2);
  t.same(got.map((b) => b.toString('utf8')).sort(), items.map(SYSLOG_LINE).sort());
});

t.test('syslog over TCP: octet-counting framing, exact bytes', async (t) => {
  const peer = await startStreamReceiver({ framing: 'octet' });
  t.teardown(() => peer.close());
  const record = exporterRecord({ type: 'syslog', config: { address: `127.0.0.1:${peer.port}`, transport: 'tcp' } });
  if (record.type !== 'syslog') throw new Error('type');
  const sink = createSyslogSink(record.config, origin);
  t.teardown(() => sink.close());
  const items = [item({ trace_id: 't1' }), item({ trace_id: 't2' })];
  await sink.send(items);
  await peer.waitFor(2);
  const expected = items.map(SYSLOG_LINE).map((l) => `${Buffer.byteLength(l)} ${l}`).join('');
  t.equal(Buffer.concat(peer.raw).toString('utf8'), expected);
});

t.test('syslog over TLS: insecure accepts a self-signed certificate; verified refuses it', async (t) => {
  const cert = await selfSignedCert();
  const peer = await startStreamReceiver({ framing: 'octet', tls: cert });
  t.teardown(() => peer.close());
  const insecure = exporterRecord({ type: 'syslog', config: { address: `127.0.0.1:${peer.port}`, transport: 'tcp+tls', tls_insecure: true, format: 'rfc3164', facility: 4 } });
  if (insecure.type !== 'syslog') throw new Error('type');
  const sink = createSyslogSink(insecure.config, origin);
  t.teardown(() => sink.close());
  await sink.send([item()]);
  const [msg] = await peer.waitFor(1);
  t.equal(msg!.toString('utf8'), `<34>May  1 10:15:02 exp-host palisade[7]: ${JSON.stringify(item().mapped)}`, 'RFC 3164, facility 4 * 8 + crit 2');
  const verified = exporterRecord({ type: 'syslog', config: { address: `127.0.0.1:${peer.port}`, transport: 'tcp+tls' } });
  if (verified.type !== 'syslog') throw new Error('type');
  const strict = createSyslogSink(verified.config, origin);
  t.teardown(() => strict.close());
  await t.rejects(strict.send([item()]), { name: 'DeliveryError', retryable: true, message: /^TLS error: .*self[- ]signed/i });
});

t.test('CEF over TCP (newline-terminated) and UDP', async (t) => {
  const tcp = await startStreamReceiver({ framing: 'newline' });
  const udp = await startUdpReceiver();
  t.teardown(() => Promise.all([tcp.close(), udp.close()]));
  const e = item();
  for (const [protocol, peer] of [['tcp', tcp], ['udp', udp]] as const) {
    const record = exporterRecord({ type: 'cef', config: { protocol, host: '127.0.0.1', port: peer.port, device_version: '9.9' } });
    const sink = createSink(record, { secrets, locks });
    await sink.send([e]);
    const [got] = await peer.waitFor(1);
    t.equal(
      got!.toString('utf8'),
      'CEF:0|Palisade|Palisade LLM Gateway|9.9|JAILBREAK_DETECTED|Jailbreak detected|10|rt=1714558502123 externalId=0b6f3c2e-9a51-4f7e-8d2a-1c3b5e7f9a01 src=192.0.2.10 act=BLOCK outcome=BLOCK msg=score 0.93 >\\= 0.8; a\\\\b\\nc cs1Label=trace_id cs1=trace-1 cs2Label=tenant_id cs2=acme cs3Label=profile_id cs3=00000000-0000-4000-8000-00000000000b cs4Label=provider cs4=vendor|a cs5Label=model cs5=model\\=x cfp1Label=jailbreak_score cfp1=0.93',
      protocol,
    );
    await sink.close();
  }
  t.equal(Buffer.concat(tcp.raw).toString('utf8').endsWith('\n'), true, 'TCP records end with a newline');
});

t.test('TCP destination down: connection refused, retryable', async (t) => {
  const port = await closedPort();
  const sink = createSink(exporterRecord({ type: 'cef', config: { protocol: 'tcp', host: '127.0.0.1', port } }), { secrets, locks });
  await t.rejects(sink.send([item()]), { retryable: true, message: `connection refused (127.0.0.1:${port})` });
  await sink.close();
});

t.test('webhook: method, opened headers, one request per event, ECS body', async (t) => {
  const peer = await startWebhookReceiver();
  t.teardown(() => peer.close());
  const record = exporterRecord({
    type: 'webhook',
    field_mapping: 'ecs',
    config: { url: peer.url, method: 'PUT', headers: { 'X-Api-Key': secrets.seal('s3cret') } },
  });
  const sink = createSink(record, { secrets, locks });
  t.teardown(() => sink.close());
  const events = [sampleEvent({ trace_id: 'w1' }), sampleEvent({ trace_id: 'w2' })];
  await sink.send(events.map((event) => ({ event, mapped: mapEvent(event, record) })));
  t.equal(peer.accepted.length, 2);
  t.equal(peer.accepted[0]!.method, 'PUT');
  t.equal(peer.accepted[0]!.headers['x-api-key'], 's3cret', 'sealed header value opened');
  t.equal(peer.accepted[0]!.headers['content-type'], 'application/json');
  const body = JSON.parse(peer.accepted[1]!.body);
  t.same(body.trace, { id: 'w2' });
  t.equal(body['@timestamp'], '2024-05-01T10:15:02.123Z');
  t.same(body.event, { type: 'JAILBREAK_DETECTED', severity_name: 'CRITICAL', kind: 'alert', category: ['intrusion_detection'] });
});

t.test('webhook batch mode: one JSON array per request', async (t) => {
  const peer = await startWebhookReceiver();
  t.teardown(() => peer.close());
  const record = exporterRecord({ type: 'webhook', config: { url: peer.url, batch_mode: true } });
  const sink = createSink(record, { secrets, locks });
  t.teardown(() => sink.close());
  const items = [item({ trace_id: 'b1' }), item({ trace_id: 'b2' }), item({ trace_id: 'b3' })];
  await sink.send(items);
  t.equal(peer.requests.length, 1);
  t.same(JSON.parse(peer.accepted[0]!.body), items.map((i) => i.mapped));
});

t.test('webhook retries 5xx with exponential backoff, then succeeds', async (t) => {
  const peer = await startWebhookReceiver();
  t.teardown(() => peer.close());
  peer.failNext(3, 503);
  const retries: string[] = [];
  const record = exporterRecord({ type: 'webhook', config: { url: peer.url, max_retries: 3 } });
  const sink = createSink(record, { secrets, locks, webhookRetryBaseMs: 50, hooks: { onRetry: (r) => retries.push(r) } });
  t.teardown(() => sink.close());
  const started = Date.now();
  await sink.send([item()]);
  t.equal(peer.requests.length, 4, '1 attempt + 3 retries');
  t.equal(peer.accepted.length, 1);
  t.same(retries, ['HTTP 503', 'HTTP 503', 'HTTP 503']);
  t.ok(Date.now() - started >= 50 + 100 + 200, 'waited 1x, 2x, 4x the base');
});

t.test('webhook gives up after max_retries (not retryable any more) and never retries a 4xx', async (t) => {
  const peer = await startWebhookReceiver();
  t.teardown(() => peer.close());
  const record = exporterRecord({ type: 'webhook', config: { url: peer.url, max_retries: 2 } });
  const sink = createSink(record, { secrets, locks, webhookRetryBaseMs: 10 });
  t.teardown(() => sink.close());
  peer.failNext(3, 500);
  await t.rejects(sink.send([item()]), { name: 'DeliveryError', retryable: false, message: 'HTTP 500 after 2 retries' });
  t.equal(peer.requests.length, 3);
  peer.requests.length = 0;
  peer.failNext(1, 404);
  await t.rejects(sink.send([item()]), new DeliveryError('HTTP 404', { retryable: false }));
  t.equal(peer.requests.length, 1, 'a 4xx is not retried');
});

t.test('webhook timeout counts as retryable, up to max_retries', async (t) => {
  const peer = await startWebhookReceiver();
  t.teardown(() => peer.close());
  peer.delayMs = 1_500;
  const record = exporterRecord({ type: 'webhook', config: { url: peer.url, timeout_sec: 1, max_retries: 1 } });
  const sink = createSink(record, { secrets, locks, webhookRetryBaseMs: 10 });
  t.teardown(() => sink.close());
  await t.rejects(sink.send([item()]), { retryable: false, message: /^timeout after 1 s .* after 1 retries$/ });
  t.equal(peer.requests.length, 2);
});

t.test('file: JSON Lines, rotation at max_size_mb, concurrent writers never interleave', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'palisade-exporter-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'events.jsonl');
  const record = exporterRecord({ type: 'file', config: { path: file, max_size_mb: 1 } });
  const a = createSink(record, { secrets, locks });
  const b = createSink(record, { secrets, locks });
  const big = 'x'.repeat(20_000);
  // Two writers of the same path at once, 60 events of ~20 kB each: ~1.2 MB, so at least one rotation.
  const batches = Array.from({ length: 30 }, (_, i) => [item({ trace_id: `f${i}`, user_prompt: big })]);
  await Promise.all(batches.flatMap((batch, i) => [a.send(batch), b.send([item({ trace_id: `g${i}`, user_prompt: big })])]));
  const names = (await readdir(dir)).sort();
  t.ok(names.length >= 2, `rotated: ${names.join(', ')}`);
  t.ok(names.every((n) => n === 'events.jsonl' || /^events\.jsonl\.\d{8}T\d{9}Z(-\d+)?$/.test(n)), 'timestamp suffix');
  const traces: string[] = [];
  for (const name of names) {
    const content = await readFile(path.join(dir, name), 'utf8');
    t.ok(content.length <= 1024 * 1024, `${name} within max_size_mb`);
    t.ok(content.endsWith('\n'));
    for (const line of content.trimEnd().split('\n')) traces.push((JSON.parse(line) as { trace_id: string }).trace_id); // throws on an interleaved line
  }
  t.equal(traces.length, 60);
  t.equal(new Set(traces).size, 60, 'each event once');
});

t.test('file: a missing directory is a destination that is down (retryable)', async (t) => {
  const record = exporterRecord({ type: 'file', config: { path: path.join(tmpdir(), 'no-such-dir-palisade', 'x.jsonl') } });
  await t.rejects(createSink(record, { secrets, locks }).send([item()]), { retryable: true, message: /ENOENT/ });
});
