import t from 'tap';
import { createServer } from 'node:http';
import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import { createSecretBox, parseEnv, ProviderHealthCheck } from '@palisade/core';
import { forEachDatabase } from '@palisade/core/testing';
import { createProviderOperations } from './providers.js';
import { createHealthChecker, HEALTH_CHECK_ENV } from './health-checker.js';
import { createResourceStore } from '@palisade/core';

t.test('health-check configuration: defaults and ranges of the spec', async (t) => {
  t.same(parseEnv(HEALTH_CHECK_ENV, {}), { HEALTH_CHECK_ENABLED: true, HEALTH_CHECK_INTERVAL_SECONDS: 60, HEALTH_CHECK_TIMEOUT_SECONDS: 5, HEALTH_CHECK_RETRIES: 2 });
  t.throws(() => parseEnv(HEALTH_CHECK_ENV, { HEALTH_CHECK_INTERVAL_SECONDS: '9' }), /HEALTH_CHECK_INTERVAL_SECONDS/);
  t.throws(() => parseEnv(HEALTH_CHECK_ENV, { HEALTH_CHECK_TIMEOUT_SECONDS: '31' }), /HEALTH_CHECK_TIMEOUT_SECONDS/);
  t.throws(() => parseEnv(HEALTH_CHECK_ENV, { HEALTH_CHECK_RETRIES: '6' }), /HEALTH_CHECK_RETRIES/);
});

t.test('health checks against real backends', async (t) => {
  let status = 200;
  let hits = 0;
  const backend = createServer((req, res) => {
    hits++;
    if (status === 0) return; // hang
    res.writeHead(status).end('x');
  });
  backend.listen(0, '127.0.0.1');
  await once(backend, 'listening');
  t.teardown(() => {
    backend.closeAllConnections();
    backend.close();
  });
  const port = (backend.address() as { port: number }).port;

  await forEachDatabase(t, async (t, db) => {
    const store = createResourceStore(db);
    const ops = createProviderOperations({ store, secrets: createSecretBox('k'), onChange: () => {} });
    const mk = async (url: string) =>
      ops.create({ name: `h-${randomUUID().slice(0, 6)}`, provider_type: 'vendor_a', match_type: 'url', match_value: '/x', target_base_url: url, mapping_preset: 'vendor_a_chat_completions' }, 'default');
    const checker = createHealthChecker({
      store,
      config: { HEALTH_CHECK_ENABLED: true, HEALTH_CHECK_INTERVAL_SECONDS: 10, HEALTH_CHECK_TIMEOUT_SECONDS: 1, HEALTH_CHECK_RETRIES: 2 },
      record: (id, r) => ops.recordHealth(id, r),
    });

    const up = await mk(`http://127.0.0.1:${port}`);
    t.equal(up.health_status, 'UNKNOWN', 'no check yet');
    status = 200;
    const healthy = await checker.checkOne(up.id, 'default', 'alice');
    t.match(healthy, { health_status: 'HEALTHY', health_error_message: null, attempts: 1, performed_by: 'alice' });
    t.same(ProviderHealthCheck.parse(healthy), healthy, 'the answer is what the Admin API documents');
    const stored = await store.providers.get(up.id);
    t.equal(stored?.health_status, 'HEALTHY');
    t.ok(stored?.health_checked_at, 'check time stored');

    status = 503;
    hits = 0;
    const down = await checker.checkOne(up.id, 'default', 'bob');
    t.match(down, { health_status: 'UNHEALTHY', health_error_message: 'HTTP 503', attempts: 3 });
    t.same(ProviderHealthCheck.parse(down), down);
    t.equal(hits, 3, 'first try plus HEALTH_CHECK_RETRIES=2');

    status = 0;
    const hung = await checker.checkOne(up.id, 'default', 'bob');
    t.match(hung, { health_status: 'UNHEALTHY', health_error_message: 'no answer within 1000 ms' });

    const refused = await mk('http://127.0.0.1:1');
    const r = await checker.checkOne(refused.id, 'default', 'x');
    t.match(r, { health_status: 'UNHEALTHY', health_error_message: /ECONNREFUSED/ });
    t.equal((await store.providers.get(refused.id))?.health_error_message?.includes('ECONNREFUSED'), true);
    await t.rejects(checker.checkOne(up.id, 'other-tenant', 'x'), { code: 'NOT_FOUND' });
    status = 200;
  });
});
