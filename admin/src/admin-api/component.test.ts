import t from 'tap';
import { createMemoryStreams, createSecretBox, listen } from '@palisade/core';
import { forEachDatabase } from '@palisade/core/testing';
import { request } from 'undici';
import { signIdentityHeaders } from '../auth/proxy-proof.js';
import { createAdminApiComponent } from './component.js';
import { providerBody } from '../testing/admin-api.js';

t.test('Admin API component: env, auth mode, bundle publishing', async (t) => {
  await forEachDatabase(t, async (t, db) => {
    const streams = createMemoryStreams();
    t.teardown(() => streams.close());

    t.throws(() => createAdminApiComponent({ db, pubsub: streams.pubsub, secrets: createSecretBox('k'), env: {}, logLevel: 'silent' }), { name: 'ConfigError', variable: 'AUTH_PROXY_SHARED_SECRET' }, 'production needs the proxy secret');
    const secret = 'proxy-secret-for-tests';
    const production = createAdminApiComponent({ db, pubsub: streams.pubsub, secrets: createSecretBox('k'), env: { AUTH_PROXY_SHARED_SECRET: secret }, logLevel: 'silent' });
    t.equal(production.port, 8001, 'ADMIN_API_PORT default');
    t.equal(production.config.AUTH_PROXY_ENABLED, true, 'AUTH_PROXY_ENABLED defaults to true');
    const prodBase = await listen(production.app, { port: 0 });
    t.teardown(() => production.app.close());
    t.equal((await request(`${prodBase}/api/v1/providers`)).statusCode, 401);
    const admin = { 'x-forwarded-user': 'root', 'x-forwarded-groups': 'admin', 'x-forwarded-tenant-id': 'acme' };
    t.equal((await request(`${prodBase}/api/v1/providers`, { headers: admin })).statusCode, 401, 'spoofed headers without the proof');
    t.equal((await request(`${prodBase}/api/v1/providers`, { headers: { ...admin, 'x-palisade-proxy-secret': 'guess' } })).statusCode, 401, 'a wrong secret');
    t.equal((await request(`${prodBase}/api/v1/providers`, { headers: { ...admin, 'x-palisade-proxy-secret': secret } })).statusCode, 200, 'the shared secret header');
    const signed = { ...admin, 'x-palisade-identity-signature': signIdentityHeaders(secret, admin) };
    t.equal((await request(`${prodBase}/api/v1/providers`, { headers: signed })).statusCode, 200, 'an HMAC of the identity headers');
    t.equal((await request(`${prodBase}/api/v1/providers`, { headers: { ...signed, 'x-forwarded-groups': 'super-admin' } })).statusCode, 401, 'a signature does not cover changed headers');
    const stale = { ...admin, 'x-palisade-identity-signature': signIdentityHeaders(secret, admin, Math.floor(Date.now() / 1000) - 3600) };
    t.equal((await request(`${prodBase}/api/v1/providers`, { headers: stale })).statusCode, 401, 'an old signature');

    const external = createAdminApiComponent({ db, pubsub: streams.pubsub, secrets: createSecretBox('k'), env: { AUTH_PROXY_ENABLED: 'false', IDENTITY_PROVIDER: 'external' }, logLevel: 'silent' });
    const extBase = await listen(external.app, { port: 0 });
    t.teardown(() => external.app.close());
    const users = await request(`${extBase}/api/v1/users`);
    t.equal(users.statusCode, 409, 'IDENTITY_PROVIDER=external: user endpoints say where users live');
    t.match(await users.body.json(), { error: { code: 'USERS_MANAGED_EXTERNALLY' } });
    t.equal((await request(`${extBase}/api/v1/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'abc', email: 'a@b.c', password: '12345678', first_name: 'a', last_name: 'b' }) })).statusCode, 409);
    t.equal((await request(`${extBase}/api/v1/roles`)).statusCode, 200, 'the fixed roles stay readable');

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
