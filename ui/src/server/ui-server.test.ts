// The UI server over real HTTP: the built files, the history fallback, caching, and the /api proxy to a
// real HTTP peer standing in for the Admin API (it echoes what reached it).
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { listen } from '@palisade/core';
import { request } from 'undici';
import { buildUiServer } from './ui-server.js';

function webRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'palisade-ui-'));
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Palisade</title><div id="root"></div>');
  writeFileSync(join(root, 'assets', 'index-abc123.js'), 'console.log(1)');
  return root;
}

async function echoApi(t: Test) {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      res.writeHead(req.url === '/api/v1/missing' ? 404 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const address = server.address() as { port: number };
  return `http://127.0.0.1:${address.port}`;
}

t.test('serves the app, falls back to index.html for app routes, and caches hashed assets for good', async (t) => {
  const { app } = buildUiServer({ webRoot: webRoot(), adminApiUrl: 'http://127.0.0.1:9', logLevel: 'silent' });
  const base = await listen(app, { port: 0 });
  t.teardown(() => app.close());
  const root = await request(`${base}/`);
  t.equal(root.statusCode, 200);
  t.match(await root.body.text(), /<title>Palisade/);
  t.equal(root.headers['cache-control'], 'no-cache');
  const deep = await request(`${base}/providers/123/edit`);
  t.equal(deep.statusCode, 200, 'a route of the app answers index.html');
  t.match(await deep.body.text(), /id="root"/);
  const asset = await request(`${base}/assets/index-abc123.js`);
  t.equal(asset.statusCode, 200);
  t.equal(await asset.body.text(), 'console.log(1)');
  t.match(String(asset.headers['cache-control']), /max-age=31536000, immutable/);
  const gone = await request(`${base}/assets/index-old.js`);
  t.equal(gone.statusCode, 404, 'an asset of an earlier build is a 404, not the page');
  await gone.body.text();
  const post = await request(`${base}/providers`, { method: 'POST', body: '{}' });
  t.equal(post.statusCode, 404, 'only GET falls back to the app');
  await post.body.text();
});

t.test('forwards /api/* to the Admin API with the identity headers unchanged', async (t) => {
  const upstream = await echoApi(t);
  const { app } = buildUiServer({ webRoot: webRoot(), adminApiUrl: upstream, logLevel: 'silent' });
  const base = await listen(app, { port: 0 });
  t.teardown(() => app.close());
  const identity = {
    'x-forwarded-user': 'alice',
    'x-forwarded-email': 'alice@acme.test',
    'x-forwarded-groups': 'admin,viewer',
    'x-forwarded-preferred-username': 'alice',
    'x-forwarded-tenant-id': 'acme',
  };
  const res = await request(`${base}/api/v1/providers?tenant_id=acme`, {
    method: 'POST',
    headers: { ...identity, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'p' }),
  });
  t.equal(res.statusCode, 200);
  const seen = (await res.body.json()) as { method: string; url: string; headers: Record<string, string>; body: string };
  t.equal(seen.method, 'POST');
  t.equal(seen.url, '/api/v1/providers?tenant_id=acme');
  t.same(JSON.parse(seen.body), { name: 'p' });
  for (const [name, value] of Object.entries(identity)) t.equal(seen.headers[name], value, `${name} passed through`);
  const missing = await request(`${base}/api/v1/missing`);
  t.equal(missing.statusCode, 404, "the Admin API's status passes through, not the app's fallback");
  await missing.body.text();
});

t.test('refuses to start without a built app', async (t) => {
  t.throws(() => buildUiServer({ webRoot: join(tmpdir(), 'no-such-ui-build'), adminApiUrl: 'http://127.0.0.1:9', logLevel: 'silent' }), /not built/);
});
