import t from 'tap';
import { buildBundle, createMemoryStreams, listen, BUNDLE_CHANNEL, Profile, Provider } from '@palisade/core';
import { buildBundleStore, createMemoryBundleSource } from '@palisade/core';
import { createConfigLoader } from './loader.js';

type Test = Pick<typeof t, 'teardown'>;

const provider = (name: string, updated = '2024-01-01T00:00:00Z') =>
  Provider.parse({
    id: `00000000-0000-4000-8000-${name.padStart(12, '0')}`,
    tenant_id: 'default',
    created_at: '2024-01-01T00:00:00Z',
    updated_at: updated,
    name,
    provider_type: 'vendor_a',
    match_type: 'url',
    match_value: `/${name}/**`,
    target_base_url: 'https://api.example.com',
    mapping_preset: 'vendor_a_chat_completions',
    status: 'ACTIVE',
  });

async function store(t: Test) {
  const source = createMemoryBundleSource();
  const { app } = buildBundleStore({ source, logLevel: 'silent' });
  const base = await listen(app, { port: 0, host: '127.0.0.1' });
  t.teardown(() => app.close());
  return { source, url: `${base}/policies/policies/default/bundle.tar.gz` };
}

const until = async (check: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
};

t.test('no bundle yet: no snapshot; the poll picks the first one up', async (t) => {
  const { source, url } = await store(t);
  const loader = createConfigLoader({ bundleUrl: url, pollIntervalMs: 20 });
  t.teardown(() => loader.stop());
  await loader.start();
  t.equal(loader.current(), null);
  const bundle = await buildBundle({ providers: [provider('a')], profiles: [], content_policies: [] });
  source.publish(bundle);
  await until(() => loader.current()?.revision === bundle.revision);
  t.equal(loader.current()!.match({ tenant_id: 'default', original_uri: '/a/x' })?.provider.name, 'a');
});

t.test('a change notice reloads at once; unchanged providers keep their compiled mapping', async (t) => {
  const { source, url } = await store(t);
  const streams = createMemoryStreams();
  t.teardown(() => streams.close());
  const first = await buildBundle({ providers: [provider('a'), provider('b')], profiles: [], content_policies: [] });
  source.publish(first);
  const loader = createConfigLoader({ bundleUrl: url, pubsub: streams.pubsub, pollIntervalMs: 0 });
  t.teardown(() => loader.stop());
  await loader.start();
  const before = loader.current()!;
  t.equal(before.revision, first.revision);

  const second = await buildBundle({ providers: [provider('a'), provider('b', '2024-02-01T00:00:00Z')], profiles: [], content_policies: [] });
  source.publish(second);
  await streams.pubsub.publish(BUNDLE_CHANNEL, JSON.stringify({ revision: second.revision }));
  await until(() => loader.current()?.revision === second.revision);
  const after = loader.current()!;
  const id = (n: string) => provider(n).id;
  t.equal(after.mappings.get(id('a'))!.mapping, before.mappings.get(id('a'))!.mapping, 'same provider revision: the compiled mapping is reused');
  t.not(after.mappings.get(id('b'))!.mapping, before.mappings.get(id('b'))!.mapping, 'an edited provider is compiled again');
  t.equal(await loader.refresh(), false, '304: nothing new');
});

t.test('a broken bundle or a store that is down keeps the snapshot in force', async (t) => {
  const { source, url } = await store(t);
  const good = await buildBundle({ providers: [provider('a')], profiles: [], content_policies: [] });
  source.publish(good);
  const errors: string[] = [];
  const loader = createConfigLoader({ bundleUrl: url, pollIntervalMs: 0, logger: { info() {}, warn() {}, error: (_o, m) => errors.push(m ?? '') } });
  t.teardown(() => loader.stop());
  await loader.start();
  source.publish({ revision: 'broken', archive: Buffer.from('not a tarball') });
  await t.rejects(loader.refresh());
  t.equal(loader.current()!.revision, good.revision, 'still serving the last good revision');

  const down = createConfigLoader({ bundleUrl: 'http://127.0.0.1:9/bundle.tar.gz', pollIntervalMs: 0, logger: { info() {}, warn() {}, error: (_o, m) => errors.push(m ?? '') } });
  await down.start();
  t.equal(down.current(), null);
  t.match(errors.at(-1), /first configuration load failed/);
  await down.stop();
});

t.test('each new revision is handed to onLoaded (once), with its active profiles; an unchanged one is not', async (t) => {
  const { source, url } = await store(t);
  const loaded: Array<{ revision: string; profiles: number }> = [];
  const loader = createConfigLoader({ bundleUrl: url, pollIntervalMs: 0, onLoaded: (snapshot) => loaded.push({ revision: snapshot.revision, profiles: snapshot.profiles.length }) });
  t.teardown(() => loader.stop());
  const a = provider('a');
  const profile = Profile.parse({ id: '00000000-0000-4000-8000-0000000000f1', tenant_id: 'default', name: 'pa', provider_id: a.id, status: 'ACTIVE', created_at: a.created_at, updated_at: a.updated_at });
  const first = await buildBundle({ providers: [a], profiles: [profile], content_policies: [] });
  source.publish(first);
  await loader.start();
  t.same(loaded, [{ revision: first.revision, profiles: 1 }]);
  t.equal(await loader.refresh(), false);
  t.equal(loaded.length, 1, 'not again for the same revision');
  const second = await buildBundle({ providers: [a, provider('b')], profiles: [], content_policies: [] });
  source.publish(second);
  t.equal(await loader.refresh(), true);
  t.same(loaded.at(-1), { revision: second.revision, profiles: 0 });
});

t.test('a store that answers without end is cut off at the bundle size limit; the snapshot in force stays', async (t) => {
  const { startFloodingPeer } = await import('@palisade/core/testing');
  const { DEFAULT_MAX_BUNDLE_BYTES } = await import('@palisade/core');
  const store = await startFloodingPeer({ totalBytes: 4 * DEFAULT_MAX_BUNDLE_BYTES, chunkBytes: 1024 * 1024, contentType: 'application/gzip' });
  t.teardown(() => store.close());
  const loader = createConfigLoader({ bundleUrl: `${store.url}/bundle.tar.gz`, pollIntervalMs: 0, logger: { info() {}, warn() {}, error() {} } });
  t.teardown(() => loader.stop());
  await loader.start();
  await t.rejects(loader.refresh(), /answer is over 67108864 bytes/);
  t.equal(loader.current(), null);
  // start() and refresh() each download once: the figures are the last answer's.
  await until(() => store.cutShort());
  t.ok(store.sentBytes() < 1.25 * DEFAULT_MAX_BUNDLE_BYTES, `the gateway hung up after ${store.sentBytes()} bytes (the store had 4 times the limit to send)`);
});
