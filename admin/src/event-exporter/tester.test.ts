import t from 'tap';
import { createSecretBox, PalisadeError } from '@palisade/core';
import { createExporterTester } from './tester.js';
import { closedPort, exporterRecord, selfSignedCert, startStreamReceiver, startWebhookReceiver } from '../testing/exporter-peers.js';

const secrets = createSecretBox('exporter-test-key');
const tester = createExporterTester({ secrets });

t.test('ok: one test event reaches the destination', async (t) => {
  const peer = await startWebhookReceiver();
  t.teardown(() => peer.close());
  t.same(await tester.test(exporterRecord({ type: 'webhook', config: { url: peer.url, headers: { Authorization: secrets.seal('Bearer x') } } })), { status: 'ok' });
  t.equal(peer.accepted.length, 1);
  t.equal(peer.accepted[0]!.headers.authorization, 'Bearer x');
  t.match(JSON.parse(peer.accepted[0]!.body), { trace_id: /^palisade-exporter-test-/, event_type: 'REQUEST_ALLOWED', severity: 'INFO' });
});

t.test('failures: 500 with the cause, no retries', async (t) => {
  const port = await closedPort();
  await t.rejects(tester.test(exporterRecord({ type: 'syslog', config: { address: `127.0.0.1:${port}` } })), {
    code: 'INTERNAL_ERROR',
    status: 500,
    message: `exporter test failed: connection refused (127.0.0.1:${port})`,
  });
  const peer = await startWebhookReceiver();
  t.teardown(() => peer.close());
  peer.failNext(1, 503);
  await t.rejects(tester.test(exporterRecord({ type: 'webhook', config: { url: peer.url, max_retries: 5 } })), { message: 'exporter test failed: HTTP 503' });
  t.equal(peer.requests.length, 1, 'a test call does not retry');
  const tlsPeer = await startStreamReceiver({ framing: 'octet', tls: await selfSignedCert() });
  t.teardown(() => tlsPeer.close());
  const err = await tester.test(exporterRecord({ type: 'syslog', config: { address: `127.0.0.1:${tlsPeer.port}`, transport: 'tcp+tls' } })).catch((e: unknown) => e);
  t.ok(err instanceof PalisadeError);
  t.match((err as Error).message, /^exporter test failed: TLS error: /);
});
