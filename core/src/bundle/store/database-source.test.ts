import t from 'tap';
import { listen } from '../../service/run.js';
import { createBundleRepository } from '../../store/repositories/bundle-repository.js';
import { forEachDatabase } from '../../testing/databases.js';
import { buildBundle } from '../bundle.js';
import { BUNDLE_PATH, buildBundleStore } from './server.js';
import { createDatabaseBundleSource } from './source.js';

t.test('the store serves what the publisher saved in the database', async (t) => {
  await forEachDatabase(t, async (t, db) => {
    const bundles = createBundleRepository(db);
    let archiveReads = 0;
    const source = createDatabaseBundleSource({
      revision: () => bundles.revision(),
      get: async () => {
        archiveReads++;
        return bundles.get();
      },
    });
    const { app } = buildBundleStore({ source, logLevel: 'silent' });
    const base = await listen(app, { port: 0, host: '127.0.0.1' });
    t.teardown(() => app.close());

    const none = await fetch(`${base}${BUNDLE_PATH}`);
    t.equal(none.status, 404, 'nothing saved yet');
    await none.arrayBuffer();

    const bundle = await buildBundle({ providers: [], profiles: [], content_policies: [] });
    await bundles.save(bundle);
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${base}${BUNDLE_PATH}`);
      t.equal(res.status, 200);
      t.equal(res.headers.get('etag'), `"${bundle.revision}"`);
      t.ok(Buffer.from(await res.arrayBuffer()).equals(bundle.archive));
    }
    t.equal(archiveReads, 1, 'the archive is read once per revision');

    await bundles.save({ revision: 'next', archive: Buffer.from('other') });
    const changed = await fetch(`${base}${BUNDLE_PATH}`, { headers: { 'if-none-match': `"${bundle.revision}"` } });
    t.equal(changed.status, 200);
    t.equal(changed.headers.get('etag'), '"next"');
    t.equal(Buffer.from(await changed.arrayBuffer()).toString(), 'other');
    t.equal(archiveReads, 2);
  });
});
