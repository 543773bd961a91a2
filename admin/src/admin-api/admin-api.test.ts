import t from 'tap';
import { randomUUID } from 'node:crypto';
import { forEachDatabase } from '@palisade/core/testing';
import { contentPolicyBody, providerBody, startAdminApi, type Caller } from '../testing/admin-api.js';

const admin: Caller = { user: 'alice', groups: 'admin,viewer', tenant: 'acme' };
const operator: Caller = { user: 'oscar', groups: 'operator', tenant: 'acme' };
const viewer: Caller = { user: 'vera', groups: 'viewer', tenant: 'acme' };
const root: Caller = { user: 'root', groups: 'super-admin', tenant: 'platform' };

t.test('Admin API over real HTTP', async (t) => {
  await forEachDatabase(t, async (t, db) => {
    const { call, changes, health } = await startAdminApi(t, db);

    t.test('production mode: 401 without the forwarded headers, 403 without a role or tenant', async (t) => {
      const none = await call('GET', '/api/v1/providers');
      t.equal(none.status, 401);
      t.equal(none.body.error.code, 'UNAUTHENTICATED');
      const noRole = await call('GET', '/api/v1/providers', { as: { user: 'nobody', groups: 'user,offline_access', tenant: 'acme' } });
      t.equal(noRole.status, 403);
      t.equal(noRole.body.error.code, 'FORBIDDEN');
      const noTenant = await call('GET', '/api/v1/providers', { as: { user: 'alice', groups: 'admin' } });
      t.equal(noTenant.status, 403);
      t.equal((await call('GET', '/health/live')).status, 200, 'health needs no identity');
    });

    t.test('providers: create, list with filters, state moves, mutability rules, delete', async (t) => {
      const created = await call('POST', '/api/v1/providers', { as: operator, body: providerBody({ upstream_auth: { type: 'bearer', token: 'sk-secret' } }) });
      t.equal(created.status, 201);
      t.match(created.body, { status: 'DRAFT', tenant_id: 'acme', managed_by: 'api' });
      t.equal(created.body.upstream_auth.token, '***', 'secrets never leave in clear');
      const id = created.body.id;
      t.equal((await call('POST', `/api/v1/providers/${id}/archive`, { as: operator })).status, 409, 'DRAFT cannot be archived');
      t.equal((await call('POST', `/api/v1/providers/${id}/activate`, { as: operator })).body.status, 'ACTIVE');
      const immutable = await call('PUT', `/api/v1/providers/${id}`, { as: operator, body: { provider_type: 'vendor_b' } });
      t.equal(immutable.status, 400);
      t.equal(immutable.body.error.details[0].path, 'provider_type');
      const live = await call('PUT', `/api/v1/providers/${id}`, { as: operator, body: { priority: 7 } });
      t.equal(live.body.priority, 7, 'an ACTIVE provider takes changes at once');
      t.equal((await call('POST', `/api/v1/providers/${id}/archive`, { as: operator })).body.status, 'ARCHIVED');
      t.equal((await call('PUT', `/api/v1/providers/${id}`, { as: operator, body: { priority: 8 } })).status, 409, 'archived is read-only');
      t.equal((await call('POST', `/api/v1/providers/${id}/reactivate`, { as: operator })).body.status, 'ACTIVE');

      const archivedList = await call('GET', '/api/v1/providers?status=DRAFT&unknown_param=1', { as: viewer });
      t.equal(archivedList.status, 200, 'unknown query parameters are ignored');
      t.notOk(archivedList.body.items.some((p: { id: string }) => p.id === id));
      const activeList = await call('GET', '/api/v1/providers?status=ACTIVE&limit=1', { as: viewer });
      t.same(activeList.body.items.map((p: { id: string }) => p.id), [id]);
      t.equal(activeList.body.limit, 1);
      for (const limit of ['0', '1001', 'x']) {
        const bad = await call('GET', `/api/v1/providers?limit=${limit}`, { as: viewer });
        t.equal(bad.status, 400, `limit=${limit}`);
        t.equal(bad.body.error.details[0].path, 'limit');
      }
      t.equal((await call('GET', '/api/v1/providers?status=BOGUS', { as: viewer })).status, 400);

      const check = await call('POST', `/api/v1/providers/${id}/health-check?performed_by=ops-bot`, { as: operator });
      t.equal(check.status, 200);
      t.same(health.at(-1), { id, tenant: 'acme', by: 'ops-bot' });

      t.equal((await call('DELETE', `/api/v1/providers/${id}`, { as: operator })).status, 403, 'operators do not delete');
      const gone = await call('DELETE', `/api/v1/providers/${id}`, { as: admin });
      t.equal(gone.status, 204);
      t.equal(gone.text, '');
      t.equal((await call('GET', `/api/v1/providers/${id}`, { as: viewer })).status, 404);
      t.equal((await call('GET', `/api/v1/providers/${randomUUID()}`, { as: viewer })).status, 404);
      t.ok(changes.count > 0, 'changes reach the bundle publisher');
    });

    t.test('bad input: 400 with field details, 409 on duplicates', async (t) => {
      const bad = await call('POST', '/api/v1/providers', { as: operator, body: providerBody({ priority: 5000 }) });
      t.equal(bad.status, 400);
      t.same(bad.body.error.code, 'VALIDATION_ERROR');
      t.equal(bad.body.error.details[0].path, 'priority');
      t.match(bad.body.error.details[0].message, /^Too big/);
      // The console sends its language; field messages and the summary come back in it.
      const badRu = await call('POST', '/api/v1/providers', { as: operator, headers: { 'accept-language': 'ru-RU,ru;q=0.9' }, body: providerBody({ priority: 5000 }) });
      t.equal(badRu.body.error.code, 'VALIDATION_ERROR');
      t.equal(badRu.body.error.details[0].path, 'priority');
      t.match(badRu.body.error.details[0].message, /^Слишком большое значение/);
      t.match(badRu.body.error.message, /^Неверное значение поля priority: Слишком большое значение/);
      const forbiddenRu = await call('DELETE', `/api/v1/providers/${randomUUID()}`, { as: operator, headers: { 'accept-language': 'ru' } });
      t.equal(forbiddenRu.status, 403);
      t.match(forbiddenRu.body.error.message, /[А-Яа-я]/, 'the refusal is in Russian');
      const notJson = await call('POST', '/api/v1/providers', { as: operator, headers: { 'content-type': 'application/json' }, body: undefined });
      t.equal(notJson.status, 400, 'a missing body is invalid data');
      const body = providerBody();
      t.equal((await call('POST', '/api/v1/providers', { as: operator, body })).status, 201);
      t.equal((await call('POST', '/api/v1/providers', { as: operator, body })).status, 409);
    });

    t.test('profiles and content policies', async (t) => {
      const provider = (await call('POST', '/api/v1/providers', { as: operator, body: providerBody() })).body;
      const draftProvider = await call('POST', '/api/v1/profiles', { as: operator, body: { name: 'early', provider_id: provider.id } });
      t.equal(draftProvider.status, 409, 'a profile needs an ACTIVE provider');
      await call('POST', `/api/v1/providers/${provider.id}/activate`, { as: operator });
      const profile = await call('POST', '/api/v1/profiles', { as: operator, body: { name: `prof-${randomUUID().slice(0, 6)}`, provider_id: provider.id } });
      t.equal(profile.status, 201);
      const edited = await call('PUT', `/api/v1/profiles/${profile.body.id}`, { as: operator, body: { event_logging: { log_allow_decisions: true } } });
      t.equal(edited.body.event_logging.log_allow_decisions, true);
      t.equal((await call('POST', `/api/v1/profiles/${profile.body.id}/activate`, { as: operator })).body.status, 'ACTIVE');
      const byProvider = await call('GET', `/api/v1/profiles?provider_id=${provider.id}`, { as: viewer });
      t.same(byProvider.body.items.map((p: { id: string }) => p.id), [profile.body.id]);

      const policy = await call('POST', '/api/v1/content-policies', { as: operator, body: contentPolicyBody() });
      t.equal(policy.status, 201);
      t.equal(policy.body.status, 'DRAFT');
      const badRegex = await call('POST', '/api/v1/content-policies', { as: operator, body: contentPolicyBody({ rules: [{ kind: 'regex', pattern: '(a)\\1' }] }) });
      t.equal(badRegex.status, 400);
      t.equal((await call('POST', `/api/v1/content-policies/${policy.body.id}/activate`, { as: operator })).body.status, 'ACTIVE');
      t.equal((await call('POST', `/api/v1/content-policies/${policy.body.id}/activate`, { as: operator })).status, 409, 'only a DRAFT activates');
      const active = await call('GET', '/api/v1/content-policies?status=ACTIVE', { as: viewer });
      t.ok(active.body.items.some((p: { id: string }) => p.id === policy.body.id));
    });

    t.test('operator-managed records answer 409 to writes', async (t) => {
      const { api } = await startAdminApi(t, db);
      const managed = await api.providers.create(providerBody(), 'acme', 'operator');
      const res = await call('PUT', `/api/v1/providers/${managed.id}`, { as: operator, body: { priority: 3 } });
      t.equal(res.status, 409);
      t.match(res.body.error.message, /Kubernetes operator/);
    });

    t.test('API keys: shown once, listed by prefix, revoked', async (t) => {
      const created = await call('POST', '/api/v1/api-keys', { as: operator, body: { name: 'ci', rate_limit_per_minute: 10 } });
      t.equal(created.status, 201);
      t.match(created.body.key, /^pk_/);
      t.equal(created.body.key_prefix, created.body.key.slice(0, 10));
      t.notOk('key_hash' in created.body);
      const listed = await call('GET', '/api/v1/api-keys', { as: viewer });
      const item = listed.body.items.find((k: { id: string }) => k.id === created.body.id);
      t.ok(item);
      t.notOk('key' in item, 'the clear key is never listed');
      t.notOk('key_hash' in item);
      const revoked = await call('POST', `/api/v1/api-keys/${created.body.id}/revoke`, { as: operator });
      t.equal(revoked.body.revoked, true);
      const otherTenant = await call('POST', '/api/v1/api-keys', { as: operator, body: { name: 'x', tenant_id: 'globex' } });
      t.equal(otherTenant.status, 403, 'a key for another tenant needs super-admin');
      const forOther = await call('POST', '/api/v1/api-keys', { as: root, body: { name: 'x', tenant_id: 'globex' } });
      t.equal(forOther.body.tenant_id, 'globex');
    });

    t.test('tenants: another tenant is 403, a super-admin crosses tenants', async (t) => {
      const mine = (await call('POST', '/api/v1/providers', { as: operator, body: providerBody() })).body;
      const globex: Caller = { user: 'gina', groups: 'admin', tenant: 'globex' };
      t.equal((await call('GET', `/api/v1/providers/${mine.id}`, { as: globex })).status, 403, 'a record of another tenant');
      t.equal((await call('GET', '/api/v1/providers?tenant_id=acme', { as: globex })).status, 403, 'a listing of another tenant');
      t.equal((await call('GET', '/api/v1/providers', { as: globex })).body.items.length, 0);
      t.equal((await call('GET', `/api/v1/providers/${mine.id}`, { as: root })).body.id, mine.id);
      const all = await call('GET', '/api/v1/providers?limit=1000', { as: root });
      t.ok(all.body.items.some((p: { id: string }) => p.id === mine.id), 'super-admin lists every tenant');
      const created = await call('POST', '/api/v1/providers?tenant_id=globex', { as: root, body: providerBody() });
      t.equal(created.body.tenant_id, 'globex');
      t.equal((await call('GET', '/api/v1/providers', { as: globex })).body.items.length, 1);
    });

    t.test('development mode acts as the dev-user', async (t) => {
      const dev = await startAdminApi(t, db, { authProxyEnabled: false });
      const created = await dev.call('POST', '/api/v1/providers', { body: providerBody() });
      t.equal(created.status, 201);
      t.equal(created.body.tenant_id, 'dev-test');
      t.equal((await dev.call('DELETE', `/api/v1/providers/${created.body.id}`)).status, 204, 'admin rights');
      const log = await dev.call('GET', `/api/v1/audit-log?resource_id=${created.body.id}`);
      t.equal(log.status, 200);
      t.same(log.body.map((r: { user_id: string; user_role: string; action: string }) => [r.user_id, r.user_role, r.action]), [
        ['dev-user', 'admin', 'DELETE'],
        ['dev-user', 'admin', 'CREATE'],
      ]);
    });

    t.test('docs: /docs, /openapi.json with our paths, /redoc with a local bundle', async (t) => {
      const docs = await call('GET', '/docs/');
      t.equal(docs.status, 200);
      t.match(docs.text, /swagger/i);
      const spec = await call('GET', '/openapi.json');
      t.equal(spec.status, 200);
      t.equal(spec.body.openapi, '3.0.3');
      for (const path of ['/api/v1/providers', '/api/v1/providers/{id}', '/api/v1/profiles', '/api/v1/content-policies', '/api/v1/api-keys', '/api/v1/users', '/api/v1/users/{id}/roles', '/api/v1/roles', '/api/v1/audit-log']) {
        t.ok(spec.body.paths[path], path);
      }
      t.ok(spec.body.paths['/api/v1/users'].post.requestBody, 'bodies are documented from the zod models');
      t.notOk(spec.body.paths['/openapi.json'], 'the docs routes are not documented');
      // Every answer is documented (the console's client is typed from it); a download is a file.
      const undocumented = Object.entries(spec.body.paths as Record<string, Record<string, { responses: Record<string, { content?: unknown }> }>>)
        .flatMap(([path, operations]) => Object.entries(operations).map(([method, op]) => ({ at: `${method.toUpperCase()} ${path}`, op })))
        .filter(({ at, op }) => !at.endsWith('/download') && !Object.entries(op.responses).some(([status, answer]) => status === '204' || (status.startsWith('2') && answer.content)))
        .map(({ at }) => at);
      t.same(undocumented, [], 'every operation documents its answer');
      const check = spec.body.paths['/api/v1/providers/{id}/health-check'].post.responses['200'].content['application/json'].schema;
      t.same(check.required, ['provider_id', 'health_status', 'health_latency_ms', 'health_error_message', 'health_checked_at', 'attempts', 'performed_by'], 'a check now answers the health it stored');
      const redoc = await call('GET', '/redoc');
      t.equal(redoc.status, 200);
      t.match(redoc.text, /<redoc spec-url="\/openapi.json">/);
      t.notMatch(redoc.text, /https?:\/\//, 'no CDN');
      const bundle = await call('GET', '/redoc/redoc.standalone.js');
      t.equal(bundle.status, 200);
      t.ok(bundle.text.length > 100_000);
    });
  });
});
