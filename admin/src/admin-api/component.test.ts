import t from 'tap';
import { createMemoryStreams, createSecretBox, listen } from '@palisade/core';
import { forEachDatabase } from '@palisade/core/testing';
import { request } from 'undici';
import { createAdminApiComponent } from './component.js';
import { providerBody } from './test-util.js';

t.test('Admin API component: env, auth mode, bundle publishing', async (t) => {
  await forEachDatabase(t, async (t, db) => {
    const streams = createMemoryStreams();
    t.teardown(() => streams.close());

    const production = createAdminApiComponent({ db, pubsub: streams.pubsub, secrets: createSecretBox('k'), env: {}, logLevel: 'silent' });
    t.equal(production.port, 8001, 'ADMIN_API_PORT default');
    t.equal(production.config.AUTH_PROXY_ENABLED, true, 'AUTH_PROXY_ENABLED defaults to true');
    const prodBase = await listen(production.app, { port: 0 });
    t.teardown(() => production.app.close());
    t.equal((await request(`${prodBase}/api/v1/providers`)).statusCode, 401);

    const dev = createAdminApiComponent({ db, pubsub: streams.pubsub, secrets: createSecretBox('k'), env: { AUTH_PROXY_ENABLED: 'false', ADMIN_API_PORT: '18001' }, logLevel: 'silent', bundleRefreshMs: 0 });
    t.equal(dev.port, 18001);
    await dev.start();
    const first = dev.publisher.revision;
    const base = await listen(dev.app, { port: 0 });
    t.teardown(() => dev.app.close());
    const created = await request(`${base}/api/v1/providers`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(providerBody()) });
    t.equal(created.statusCode, 201);
    const { id } = (await created.body.json()) as { id: string };
    t.equal((await request(`${base}/api/v1/providers/${id}/activate`, { method: 'POST' })).statusCode, 200);
    // The publisher rebuilds shortly after a change; wait for the new revision with a generous bound.
    const deadline = Date.now() + 20_000;
    while (dev.publisher.revision === first && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    t.not(dev.publisher.revision, first, 'activating a provider publishes a new bundle');
  });
});
