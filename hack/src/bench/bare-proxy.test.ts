// The bare proxy forwards method, path, body and the content-type / authorization headers, and
// answers with the upstream's status, content-type and body. In-process, on port 0.
import t, { type Test } from 'tap';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startBareProxy } from './bare-proxy.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

async function startUpstream(t: Test, answer: { status: number; contentType: string; body: string }): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(answer.status, { 'content-type': answer.contentType, 'x-upstream-only': 'yes' });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  server.keepAliveTimeout = 1000;
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

async function startProxy(t: Test, upstream: string): Promise<string> {
  const proxy = await startBareProxy({ upstream, port: 0 });
  t.teardown(() => proxy.close());
  return proxy.url;
}

t.test('a POST is forwarded with path, body and headers; status, content-type and body come back', async (t) => {
  const upstream = await startUpstream(t, { status: 201, contentType: 'application/json', body: '{"ok":true,"n":1}' });
  const proxy = await startProxy(t, upstream.url);
  const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hello' }] });
  const res = await fetch(`${proxy}/v1/chat/completions?x=1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer k', 'x-tenant-id': 'default' },
    body,
  });
  t.equal(res.status, 201);
  t.equal(res.headers.get('content-type'), 'application/json');
  t.equal(await res.text(), '{"ok":true,"n":1}');
  t.equal(upstream.seen.length, 1);
  const seen = upstream.seen[0]!;
  t.equal(seen.method, 'POST');
  t.equal(seen.url, '/v1/chat/completions?x=1');
  t.equal(seen.body, body, 'the body arrives byte for byte');
  t.equal(seen.headers['content-type'], 'application/json');
  t.equal(seen.headers.authorization, 'Bearer k');
  t.equal(seen.headers['x-tenant-id'], undefined, 'other headers are not forwarded');
});

t.test('a non-JSON body is passed through unparsed, and upstream errors keep their status', async (t) => {
  const upstream = await startUpstream(t, { status: 429, contentType: 'text/plain', body: 'slow down' });
  const proxy = await startProxy(t, upstream.url);
  const res = await fetch(`${proxy}/anything`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{not json' });
  t.equal(res.status, 429);
  t.equal(await res.text(), 'slow down');
  t.equal(upstream.seen[0]?.body, '{not json');
});

t.test('a GET without body is forwarded as a GET', async (t) => {
  const upstream = await startUpstream(t, { status: 200, contentType: 'application/json', body: '{"status":"ok"}' });
  const proxy = await startProxy(t, upstream.url);
  const res = await fetch(`${proxy}/health`);
  t.equal(res.status, 200);
  t.same(await res.json(), { status: 'ok' });
  t.equal(upstream.seen[0]?.method, 'GET');
  t.equal(upstream.seen[0]?.body, '');
});

t.test('an unreachable upstream is a 502', async (t) => {
  const proxy = await startProxy(t, 'http://127.0.0.1:1');
  const res = await fetch(`${proxy}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  t.equal(res.status, 502);
  t.match(await res.json(), { error: { type: 'bad_gateway' } });
});
