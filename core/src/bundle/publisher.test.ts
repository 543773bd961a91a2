import t from 'tap';
import { randomUUID } from 'node:crypto';
import { Provider } from '../model/provider.js';
import { createResourceStore } from '../store/resources.js';
import { createBundleRepository } from '../store/repositories/bundle-repository.js';
import { createMemoryStreams } from '../stream/memory.js';
import { forEachDatabase } from '../testing/databases.js';
import { readBundle } from './bundle.js';
import { BUNDLE_CHANNEL, createBundlePublisher } from './publisher.js';

const provider = (name: string, status: 'DRAFT' | 'ACTIVE') =>
  Provider.parse({
    id: randomUUID(),
    tenant_id: 'default',
    created_at: new Date().toISOString(),
    updated_at: new Date().toISOString(),
    name,
    provider_type: 'vendor_a',
    match_type: 'url',
    match_value: `/${name}/**`,
    target_base_url: 'https://api.example.com',
    mapping_preset: 'vendor_a_chat_completions',
    status,
  });

t.test('bundle publisher', async (t) => {
  await forEachDatabase(t, async (t, db) => {
    const streams = createMemoryStreams();
    t.teardown(() => streams.close());
    const notices: string[] = [];
    await streams.pubsub.subscribe(BUNDLE_CHANNEL, (message) => notices.push((JSON.parse(message) as { revision: string }).revision));
    const store = createResourceStore(db);
    const bundles = createBundleRepository(db);
    const publisher = createBundlePublisher({ db, pubsub: streams.pubsub, refreshIntervalMs: 0, debounceMs: 5 });
    t.teardown(() => publisher.stop());
    const settle = () => new Promise((r) => setTimeout(r, 60));

    const first = await publisher.start();
    t.equal(publisher.revision, first);
    t.equal(await bundles.revision(), first, 'stored for the bundle store');
    await settle();
    t.same(notices, [first], 'start announces the revision');

    await store.providers.insert(provider('draft', 'DRAFT'));
    publisher.schedule();
    await settle();
    t.same(notices, [first], 'a DRAFT provider changes nothing: no notice');

    const active = await store.providers.insert(provider('live', 'ACTIVE'));
    for (let i = 0; i < 5; i++) publisher.schedule();
    await settle();
    t.equal(notices.length, 2, 'a burst of changes makes one notice');
    const second = notices[1]!;
    t.not(second, first);
    const stored = await bundles.get();
    t.equal(stored!.revision, second);
    const read = await readBundle(stored!.archive);
    t.same(read.data.providers.map((p) => p.id), [active.id], 'the stored archive holds the ACTIVE provider');

    t.equal(await publisher.syncNow(), second, 'sync/force rebuilds the same revision');
    await settle();
    t.same(notices.slice(2), [second], 'and announces it even though nothing changed');

    // Concurrent requests: all resolve, the last one sees every change made before it was asked.
    await store.providers.update(active.id, (p) => ({ ...p, match_value: '/moved/**' }));
    const results = await Promise.all([publisher.syncNow(), publisher.syncNow(), publisher.syncNow()]);
    t.equal(new Set(results).size, 1);
    const moved = await readBundle((await bundles.get())!.archive);
    t.equal(moved.data.providers[0]!.match_value, '/moved/**');
  });
});
