import t from 'tap';
import type { Provider } from '../../model/provider.js';
import { listen } from '../../service/run.js';
import { buildBundle, readBundle } from '../bundle.js';
import { BUNDLE_PATH, BUNDLE_REVISION_PATH, buildBundleStore, ifNoneMatchHits } from './server.js';
import { createMemoryBundleSource } from './source.js';

const provider = (name: string, match_value: string): Provider => ({
  id: `00000000-0000-4000-8000-${name.padStart(12, '0')}`,
  tenant_id: 'default',
  name,
  provider_type: 'vendor_a',
  match_type: 'url',
  match_value,
  header_name: 'X-LLM-Provider',
  priority: 100,
  target_base_url: 'https://api.example.com',
  target_path: '/v1/chat/completions',
  request_timeout_ms: 30000,
  description: '',
  mapping_preset: 'vendor_a_chat_completions',
  upstream_auth: { type: 'passthrough' },
  managed_by: 'api',
  status: 'ACTIVE',
  health_status: 'UNKNOWN',
  health_latency_ms: null,
  health_error_message: null,
  health_checked_at: null,
  created_at: '2024-01-01T00:00:00Z',
  updated_at: '2024-01-01T00:00:00Z',
});

async function start(options: { internalToken?: string } = {}) {
  const source = createMemoryBundleSource();
  const { app } = buildBundleStore({ source, logLevel: 'silent', ...options });
  const base = await listen(app, { port: 0 });
  return { source, app, base };
}

t.test('serves the published bundle with its revision as ETag', async (t) => {
  const { source, app, base } = await start();
  t.teardown(() => app.close());

  const none = await fetch(`${base}${BUNDLE_PATH}`);
  t.equal(none.status, 404, '404 before anything is published');
  t.match(await none.json(), { error: { code: 'NOT_FOUND', message: 'No policy bundle has been built yet' } });
  const noRevision = await fetch(`${base}${BUNDLE_REVISION_PATH}`);
  t.equal(noRevision.status, 404);
  await noRevision.arrayBuffer();

  const first = await buildBundle({ providers: [provider('1', '/a/**')], profiles: [], content_policies: [] });
  source.publish(first);

  const ok = await fetch(`${base}${BUNDLE_PATH}`);
  t.equal(ok.status, 200);
  t.equal(ok.headers.get('content-type'), 'application/gzip');
  t.equal(ok.headers.get('etag'), `"${first.revision}"`);
  t.equal(ok.headers.get('cache-control'), 'no-cache');
  const body = Buffer.from(await ok.arrayBuffer());
  t.ok(body.equals(first.archive), 'the archive as published');
  const read = await readBundle(body);
  t.equal(read.revision, first.revision);
  t.same(read.data, first.data);
  t.equal(read.data.providers[0]?.match_value, '/a/**');

  const head = await fetch(`${base}${BUNDLE_PATH}`, { method: 'HEAD' });
  t.equal(head.status, 200);
  t.equal(head.headers.get('etag'), `"${first.revision}"`);
  t.equal(head.headers.get('content-type'), 'application/gzip');
  t.equal(Buffer.from(await head.arrayBuffer()).length, 0, 'HEAD has no body');

  const revision = await fetch(`${base}${BUNDLE_REVISION_PATH}`);
  t.equal(revision.status, 200);
  t.same(await revision.json(), { revision: first.revision });

  const notModified = await fetch(`${base}${BUNDLE_PATH}`, { headers: { 'if-none-match': `"${first.revision}"` } });
  t.equal(notModified.status, 304);
  t.equal(notModified.headers.get('etag'), `"${first.revision}"`);
  t.equal(Buffer.from(await notModified.arrayBuffer()).length, 0, '304 has no body');
  const headNotModified = await fetch(`${base}${BUNDLE_PATH}`, { method: 'HEAD', headers: { 'if-none-match': `W/"${first.revision}"` } });
  t.equal(headNotModified.status, 304);
  await headNotModified.arrayBuffer();

  const stale = await fetch(`${base}${BUNDLE_PATH}`, { headers: { 'if-none-match': '"an-old-revision"' } });
  t.equal(stale.status, 200, 'another revision gets the archive');
  await stale.arrayBuffer();

  const second = await buildBundle({ providers: [provider('1', '/a/**'), provider('2', '/b/*')], profiles: [], content_policies: [] });
  t.not(second.revision, first.revision);
  source.publish(second);
  const changed = await fetch(`${base}${BUNDLE_PATH}`, { headers: { 'if-none-match': `"${first.revision}"` } });
  t.equal(changed.status, 200, 'the old ETag no longer matches');
  t.equal(changed.headers.get('etag'), `"${second.revision}"`);
  const changedData = await readBundle(Buffer.from(await changed.arrayBuffer()));
  t.same(changedData.data.providers.map((p) => p.name), ['1', '2']);

  source.clear();
  const cleared = await fetch(`${base}${BUNDLE_PATH}`);
  t.equal(cleared.status, 404);
  await cleared.arrayBuffer();

  const live = await fetch(`${base}/health/live`);
  t.equal(live.status, 200);
  await live.arrayBuffer();
});

t.test('with an internal token the bundle needs X-Internal-Token, health does not', async (t) => {
  const { source, app, base } = await start({ internalToken: 'sesame' });
  t.teardown(() => app.close());
  source.publish(await buildBundle({ providers: [], profiles: [], content_policies: [] }));

  const refused = await fetch(`${base}${BUNDLE_PATH}`);
  t.equal(refused.status, 401);
  await refused.arrayBuffer();
  const allowed = await fetch(`${base}${BUNDLE_PATH}`, { headers: { 'x-internal-token': 'sesame' } });
  t.equal(allowed.status, 200);
  await allowed.arrayBuffer();
  const live = await fetch(`${base}/health/live`);
  t.equal(live.status, 200);
  await live.arrayBuffer();
});

t.test('a failing source is a 500, not a crash', async (t) => {
  const { app } = buildBundleStore({
    source: { current: async () => Promise.reject(new Error('database down')) },
    logLevel: 'silent',
  });
  const base = await listen(app, { port: 0 });
  t.teardown(() => app.close());
  const res = await fetch(`${base}${BUNDLE_PATH}`);
  t.equal(res.status, 500);
  await res.arrayBuffer();
});

t.test('ifNoneMatchHits reads lists, weak tags and *', async (t) => {
  const etag = '"abc"';
  t.equal(ifNoneMatchHits(undefined, etag), false);
  t.equal(ifNoneMatchHits('"abc"', etag), true);
  t.equal(ifNoneMatchHits('W/"abc"', etag), true);
  t.equal(ifNoneMatchHits('"x", "abc"', etag), true);
  t.equal(ifNoneMatchHits('*', etag), true);
  t.equal(ifNoneMatchHits('abc', etag), false);
  t.equal(ifNoneMatchHits('"abcd"', etag), false);
});

t.test('the memory source keeps only revision and archive', async (t) => {
  const source = createMemoryBundleSource();
  t.equal(await source.current(), null);
  const bundle = await buildBundle({ providers: [], profiles: [], content_policies: [] });
  source.publish(bundle);
  t.same(Object.keys((await source.current())!).sort(), ['archive', 'revision']);
});
