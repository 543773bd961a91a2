// While its database is down the registry and the Admin API answer 503 SERVICE_UNAVAILABLE with a
// message (and Retry-After), not 500. PGlite is closed under the app; on PostgreSQL the test's own
// throw-away database is dropped, which ends its connections (the shared server keeps running).
import t from 'tap';
import pg from 'pg';
import { createSecretBox, listen, type Database } from '@palisade/core';
import { forEachDatabase, TEST_POSTGRES_URL } from '@palisade/core/testing';
import { request } from 'undici';
import { healthyCheck, providerBody, startAdminApi, type Caller } from '../testing/admin-api.js';
import { buildRegistry } from './build-registry.js';

const admin: Caller = { user: 'alice', groups: 'admin', tenant: 'acme' };

async function takeDown(db: Database): Promise<void> {
  if (db.kind === 'pglite') return db.close();
  const { rows } = await db.query<{ name: string }>('SELECT current_database() AS name');
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  await client.query(`DROP DATABASE ${rows[0]!.name} WITH (FORCE)`);
  await client.end();
}

t.test('a database outage is a 503 with a message', async (t) => {
  await forEachDatabase(t, async (t, db) => {
    const registry = buildRegistry({
      db,
      secrets: createSecretBox('k'),
      logLevel: 'silent',
      publisher: { publish: async () => 'rev', schedule: () => {}, syncNow: async () => 'rev' },
      checkHealth: healthyCheck,
    });
    const base = await listen(registry.app, { port: 0, host: '127.0.0.1' });
    t.teardown(() => registry.app.close());
    const { call } = await startAdminApi(t, db);
    const before = await request(`${base}/api/v1/providers`);
    t.equal(before.statusCode, 200);
    await before.body.dump();

    await takeDown(db);
    for (const [method, path, body] of [
      ['GET', '/api/v1/providers', undefined],
      ['POST', '/api/v1/providers', providerBody()],
      ['GET', '/api/v1/profiles', undefined],
    ] as const) {
      const res = await request(`${base}${path}`, {
        method,
        headers: body ? { 'content-type': 'application/json' } : {},
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const answer = (await res.body.json()) as { error: { code: string; message: string } };
      t.equal(res.statusCode, 503, `registry ${method} ${path}`);
      t.equal(answer.error.code, 'SERVICE_UNAVAILABLE');
      t.match(answer.error.message, /database is unavailable/);
      t.equal(res.headers['retry-after'], '5');
    }
    const listed = await call('GET', '/api/v1/providers', { as: admin });
    t.equal(listed.status, 503, 'Admin API list');
    t.equal(listed.body.error.code, 'SERVICE_UNAVAILABLE');
    t.equal((await call('POST', '/api/v1/providers', { as: admin, body: providerBody() })).status, 503, 'Admin API write');
  });
});
