import t from 'tap';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { createResourceStore, createSecretBox, type Exporter } from '@palisade/core';
import { forEachDatabase } from '@palisade/core/testing';
import { startTestApp } from '../testing/route-test-app.js';
import { registerExporterRoutes } from './routes.js';

/** A real webhook receiver on loopback: records each request's headers, answers `status`. */
async function webhookServer(t: { teardown(fn: () => unknown): void }, status = 200) {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    req.resume();
    req.on('end', () => res.writeHead(status).end());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.teardown(() => new Promise((done) => server.close(done)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, seen };
}

/** Tester in the shape of admin/src/exporter's: one POST of a test event with the exporter's headers. */
async function postTestEvent(exporter: Exporter): Promise<{ status: 'ok' }> {
  if (exporter.type !== 'webhook') throw new Error(`this test tester handles webhooks only, not ${exporter.type}`);
  const res = await request(exporter.config.url, {
    method: exporter.config.method,
    headers: { ...exporter.config.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ event_type: 'TEST' }),
  });
  await res.body.dump();
  if (res.statusCode >= 300) throw new Error(`webhook answered HTTP ${res.statusCode}`);
  return { status: 'ok' };
}

const webhook = (url: string, over: Record<string, unknown> = {}) => ({
  name: `wh-${randomUUID().slice(0, 8)}`,
  type: 'webhook',
  config: { url, headers: { Authorization: 'Bearer s3cret', 'X-Team': 'blue' } },
  ...over,
});

t.test('exporters over real HTTP', async (t) => {
  await forEachDatabase(t, async (t, db) => {
    const secrets = createSecretBox('test-key');
    const store = createResourceStore(db);
    const hook = await webhookServer(t);
    const { call } = await startTestApp(t, (app, ctx) => registerExporterRoutes(app, { ...ctx, store, secrets, testExporter: postTestEvent }));

    t.test('create: defaults, secrets sealed at rest and masked in answers', async (t) => {
      const created = await call('POST', '/api/v1/exporters', { roles: 'operator', body: webhook(hook.url) });
      t.equal(created.status, 201);
      t.match(created.body, { enabled: true, tenant_id: 'default', managed_by: 'api', field_mapping: 'generic', config: { method: 'POST', max_retries: 3 } });
      t.same(created.body.config.headers, { Authorization: '***', 'X-Team': '***' });
      const stored = await store.exporters.get(created.body.id);
      const headers = (stored!.config as { headers: Record<string, string> }).headers;
      t.ok(secrets.isSealed(headers.Authorization!), 'stored sealed');
      t.equal(secrets.open(headers.Authorization!), 'Bearer s3cret');
      const got = await call('GET', `/api/v1/exporters/${created.body.id}`, { roles: 'viewer' });
      t.equal(got.status, 200);
      t.equal(got.body.config.headers.Authorization, '***');
    });

    t.test('kafka sasl_password sealed; "***" sent back keeps it; a new value replaces it', async (t) => {
      const created = await call('POST', '/api/v1/exporters', {
        body: { name: `k-${randomUUID().slice(0, 6)}`, type: 'KAFKA', config: { brokers: ['127.0.0.1:9092'], topic: 'events', sasl_mechanism: 'plain', sasl_username: 'u', sasl_password: 'pw1' } },
      });
      t.equal(created.status, 201);
      t.equal(created.body.config.sasl_password, '***');
      t.equal(created.body.config.sasl_mechanism, 'PLAIN');
      const kept = await call('PUT', `/api/v1/exporters/${created.body.id}`, { body: { ...created.body, config: { ...created.body.config, topic: 'events2' } } });
      t.equal(kept.status, 200, 'the whole record PUT back (type unchanged) is accepted');
      t.equal(kept.body.config.topic, 'events2');
      const sealedAfter = (await store.exporters.get(created.body.id))!.config as { sasl_password: string };
      t.equal(secrets.open(sealedAfter.sasl_password), 'pw1');
      await call('PUT', `/api/v1/exporters/${created.body.id}`, { body: { config: { sasl_password: 'pw2' } } });
      const replaced = (await store.exporters.get(created.body.id))!.config as { sasl_password: string };
      t.equal(secrets.open(replaced.sasl_password), 'pw2');
    });

    t.test('update: partial, type immutable (400 naming it), toggle with enabled', async (t) => {
      const { body: ex } = await call('POST', '/api/v1/exporters', { body: webhook(hook.url) });
      const partial = await call('PUT', `/api/v1/exporters/${ex.id}`, { roles: 'operator', body: { description: 'to the SIEM', config: { max_retries: 5 } } });
      t.equal(partial.status, 200);
      t.match(partial.body, { description: 'to the SIEM', config: { max_retries: 5, url: hook.url, timeout_sec: 10 } });
      t.same(partial.body.config.headers, { Authorization: '***', 'X-Team': '***' }, 'headers untouched by a partial config');
      const type = await call('PUT', `/api/v1/exporters/${ex.id}`, { body: { type: 'syslog' } });
      t.equal(type.status, 400);
      t.equal(type.body.error.code, 'VALIDATION_ERROR');
      t.equal(type.body.error.details[0].path, 'type');
      const off = await call('PUT', `/api/v1/exporters/${ex.id}`, { roles: 'operator', body: { enabled: false } });
      t.equal(off.body.enabled, false);
      t.equal(off.body.config.max_retries, 5, 'configuration kept');
      t.equal((await call('PUT', `/api/v1/exporters/${ex.id}`, { body: { enabled: true } })).body.enabled, true);
      const bad = await call('PUT', `/api/v1/exporters/${ex.id}`, { body: { config: { max_retries: 11 } } });
      t.equal(bad.status, 400);
      t.equal(bad.body.error.details[0].path, 'config.max_retries');
      const mapping = await call('PUT', `/api/v1/exporters/${ex.id}`, { body: { field_mapping: 'custom' } });
      t.equal(mapping.status, 400, 'merged record checked with the create rules');
      t.equal(mapping.body.error.details[0].path, 'custom_mapping');
      t.equal((await call('PUT', `/api/v1/exporters/${ex.id}`, { body: 'nope' })).status, 400);
    });

    t.test('bad input, unknown ids, name conflicts', async (t) => {
      const missing = await call('POST', '/api/v1/exporters', { body: { type: 'webhook', config: { url: hook.url } } });
      t.equal(missing.status, 400);
      t.same(missing.body.error.details.map((d: { path: string }) => d.path), ['name']);
      const badConfig = await call('POST', '/api/v1/exporters', { body: webhook('ftp://x', { name: 'x' }) });
      t.equal(badConfig.status, 400);
      t.equal(badConfig.body.error.details[0].path, 'config.url');
      const malformed = await call('POST', '/api/v1/exporters', { body: '{"name":' });
      t.equal(malformed.status, 400);
      const first = await call('POST', '/api/v1/exporters', { body: webhook(hook.url) });
      const dup = await call('POST', '/api/v1/exporters', { body: webhook(hook.url, { name: first.body.name }) });
      t.equal(dup.status, 409);
      t.equal(dup.body.error.code, 'CONFLICT');
      const other = await call('POST', '/api/v1/exporters', { body: webhook(hook.url) });
      const rename = await call('PUT', `/api/v1/exporters/${other.body.id}`, { body: { name: first.body.name } });
      t.equal(rename.status, 409);
      for (const path of [`/api/v1/exporters/${randomUUID()}`, '/api/v1/exporters/not-a-uuid']) {
        t.equal((await call('GET', path)).status, 404);
        t.equal((await call('PUT', path, { body: { enabled: false } })).status, 404);
        t.equal((await call('DELETE', path)).status, 404);
        t.equal((await call('POST', `${path}/test`)).status, 404);
      }
    });

    t.test('list: paging, enabled/status/type filters, unknown params ignored, limit bounds', async (t) => {
      const tenant = `list-${randomUUID().slice(0, 6)}`;
      const opts = { roles: 'admin', tenant };
      for (let i = 0; i < 3; i++) await call('POST', '/api/v1/exporters', { ...opts, body: webhook(hook.url, { enabled: i !== 1 }) });
      await call('POST', '/api/v1/exporters', { ...opts, body: { name: 'file-1', type: 'file', config: { path: '/tmp/x.jsonl' } } });
      const all = await call('GET', '/api/v1/exporters?foo=bar', { ...opts, roles: 'viewer' });
      t.equal(all.status, 200);
      t.equal(all.body.total, 4);
      t.match(all.body, { limit: 50, offset: 0 });
      t.equal((await call('GET', '/api/v1/exporters?enabled=false', opts)).body.total, 1);
      t.equal((await call('GET', '/api/v1/exporters?status=ENABLED', opts)).body.total, 3);
      t.equal((await call('GET', '/api/v1/exporters?type=file', opts)).body.total, 1);
      const page = await call('GET', '/api/v1/exporters?limit=2&offset=1', opts);
      t.equal(page.body.items.length, 2);
      t.equal(page.body.total, 4);
      for (const q of ['limit=0', 'limit=1001', 'offset=-1', 'enabled=maybe']) {
        const bad = await call('GET', `/api/v1/exporters?${q}`, opts);
        t.equal(bad.status, 400, q);
        t.equal(bad.body.error.code, 'VALIDATION_ERROR');
      }
    });

    t.test('roles and tenants', async (t) => {
      t.equal((await call('GET', '/api/v1/exporters', { roles: null })).status, 401);
      t.equal((await call('GET', '/api/v1/exporters', { roles: 'user' })).status, 403, 'no known role: 403');
      t.equal((await call('POST', '/api/v1/exporters', { roles: 'viewer', body: webhook(hook.url) })).status, 403);
      const { body: ex } = await call('POST', '/api/v1/exporters', { roles: 'operator', tenant: 'acme', body: webhook(hook.url) });
      t.equal(ex.tenant_id, 'acme');
      t.equal((await call('DELETE', `/api/v1/exporters/${ex.id}`, { roles: 'operator', tenant: 'acme' })).status, 403, 'operator cannot delete');
      t.equal((await call('GET', `/api/v1/exporters/${ex.id}`, { roles: 'admin', tenant: 'other' })).status, 403, "another tenant's record: 403 (rule 3)");
      t.equal((await call('PUT', `/api/v1/exporters/${ex.id}`, { roles: 'admin', tenant: 'other', body: { enabled: false } })).status, 403);
      t.equal((await call('GET', '/api/v1/exporters?tenant_id=acme', { roles: 'admin', tenant: 'other' })).status, 403);
      t.equal((await call('POST', '/api/v1/exporters', { roles: 'admin', tenant: 'other', body: webhook(hook.url, { tenant_id: 'acme' }) })).status, 403);
      const own = await call('GET', '/api/v1/exporters', { roles: 'viewer', tenant: 'acme' });
      t.ok(own.body.items.every((e: Exporter) => e.tenant_id === 'acme'));
      const everyone = await call('GET', '/api/v1/exporters', { roles: 'super-admin', tenant: 'root' });
      t.ok(new Set(everyone.body.items.map((e: Exporter) => e.tenant_id)).size >= 2, 'super-admin lists all tenants');
      t.equal((await call('GET', '/api/v1/exporters?tenant_id=acme', { roles: 'super-admin', tenant: 'root' })).body.total, own.body.total);
      t.equal((await call('GET', `/api/v1/exporters/${ex.id}`, { roles: 'super-admin', tenant: 'root' })).status, 200);
      const movedTenant = await call('PUT', `/api/v1/exporters/${ex.id}`, { roles: 'admin', tenant: 'acme', body: { tenant_id: 'other' } });
      t.equal(movedTenant.status, 400);
      t.equal(movedTenant.body.error.details[0].path, 'tenant_id');
      t.equal((await call('DELETE', `/api/v1/exporters/${ex.id}`, { roles: 'admin', tenant: 'acme' })).status, 204);
      t.equal((await call('GET', `/api/v1/exporters/${ex.id}`, { roles: 'admin', tenant: 'acme' })).status, 404);
    });

    t.test('operator-managed records answer 409 to writes', async (t) => {
      const { body: ex } = await call('POST', '/api/v1/exporters', { body: webhook(hook.url) });
      await store.exporters.update(ex.id, (current) => ({ ...current, managed_by: 'operator' }));
      const put = await call('PUT', `/api/v1/exporters/${ex.id}`, { body: { enabled: false } });
      t.equal(put.status, 409);
      t.equal(put.body.error.code, 'CONFLICT');
      t.equal((await call('DELETE', `/api/v1/exporters/${ex.id}`)).status, 409);
      t.equal((await call('GET', `/api/v1/exporters/${ex.id}`)).body.enabled, true);
    });

    t.test('test event: 200 ok with secrets opened, 500 with the cause', async (t) => {
      const { body: ex } = await call('POST', '/api/v1/exporters', { body: webhook(hook.url) });
      const before = hook.seen.length;
      const ok = await call('POST', `/api/v1/exporters/${ex.id}/test`, { roles: 'operator' });
      t.equal(ok.status, 200);
      t.same(ok.body, { status: 'ok' });
      t.equal(hook.seen.length, before + 1);
      t.equal(hook.seen.at(-1)!.authorization, 'Bearer s3cret', 'the destination got the clear header value');
      t.equal((await call('POST', `/api/v1/exporters/${ex.id}/test`, { roles: 'viewer' })).status, 403);
      const failing = await webhookServer(t, 503);
      const { body: down } = await call('POST', '/api/v1/exporters', { body: webhook(failing.url) });
      const failed = await call('POST', `/api/v1/exporters/${down.id}/test`);
      t.equal(failed.status, 500);
      t.match(failed.body.error.message, /HTTP 503/);
    });
  });
});

t.test('without a tester the test route answers 501', async (t) => {
  await forEachDatabase(t, async (t, db) => {
    const store = createResourceStore(db);
    const { call } = await startTestApp(t, (app, ctx) => registerExporterRoutes(app, { ...ctx, store, secrets: createSecretBox('k') }));
    const { body: ex } = await call('POST', '/api/v1/exporters', { body: webhook('http://127.0.0.1:9/hook') });
    const res = await call('POST', `/api/v1/exporters/${ex.id}/test`);
    t.equal(res.status, 501);
    t.match(res.body.error.message, /without an exporter tester/);
  });
});
