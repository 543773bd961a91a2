// https upstreams with a self-signed certificate: refused by default, accepted with insecureSkipVerify
// (GATEWAY_LLM_INSECURE_SKIP_VERIFY). Node cannot make an X.509 certificate itself, so the openssl CLI
// makes one; without openssl the test is skipped with the reason printed.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import t from 'tap';
import { createMemoryStreams } from '@palisade/core';
import { createUpstreamClient } from './client.js';
import { chatBody, expectPalisadeError } from '../testing/upstream.js';

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const openssl = hasOpenssl();

t.test('self-signed https upstream: refused by default, accepted with insecureSkipVerify', { skip: openssl ? false : 'the openssl CLI is not installed, so no test certificate can be made' }, async (t) => {
  const dir = t.testdir();
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'],
    { stdio: 'ignore' },
  );
  const server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ok: true, path: req.url }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  server.on('secureConnection', (socket) => t.teardown(() => socket.destroy()));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;

  const streams = createMemoryStreams();
  const strict = createUpstreamClient({ cache: streams.cache });
  const insecure = createUpstreamClient({ cache: streams.cache, insecureSkipVerify: true });
  t.teardown(async () => {
    await strict.close();
    await insecure.close();
    await streams.close();
  });

  const { error } = await expectPalisadeError(() => strict.send({ url, body: chatBody('x'), timeoutMs: 5000, auth: undefined }));
  t.equal(error.code, 'LLM_REQUEST_FAILED');
  t.equal(error.status, 502);
  t.match(error.message, /TLS: self-signed certificate \(DEPTH_ZERO_SELF_SIGNED_CERT/);

  const res = await insecure.send({ url, body: chatBody('x'), timeoutMs: 5000, auth: undefined });
  t.equal(res.status, 200);
  t.same(JSON.parse(res.text ?? ''), { ok: true, path: '/v1/chat/completions' });
});
