import t from 'tap';
import { createHash, randomUUID } from 'node:crypto';
import { createSecretBox, listen } from '@palisade/core';
import { forEachDatabase } from '@palisade/core/testing';
import { request } from 'undici';
import { healthyCheck, providerBody } from '../testing/admin-api.js';
import { buildRegistry } from './build-registry.js';


t.test('registry over real HTTP', async (t) => {
  await forEachDatabase(t, async (t, db) => {
    let changes = 0;
    const secrets = createSecretBox('test-key');
    const registry = buildRegistry({
      db,
      secrets,
      logLevel: 'silent',
      publisher: { publish: async () => (changes++, 'rev-test'), schedule: () => void changes++, syncNow: async () => 'rev-test' },
      checkHealth: healthyCheck,
    });
    const base = await listen(registry.app, { port: 0 });
    t.teardown(() => registry.app.close());
    const call = async (method: string, path: string, body?: unknown, tenant = 'default') => {
      const res = await request(`${base}${path}`, {
        method: method as 'GET',
        headers: { 'content-type': 'application/json', 'x-tenant-id': tenant },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.body.text();
      return { status: res.statusCode, body: text ? JSON.parse(text) : undefined, headers: res.headers };
    };

    t.test('create: DRAFT with defaults; invalid data is a 400 naming the field', async (t) => {
      const created = await call('POST', '/api/v1/providers', providerBody());
      t.equal(created.status, 201);
      t.match(created.body, { status: 'DRAFT', priority: 100, target_path: '/v1/chat/completions', request_timeout_ms: 30000, tenant_id: 'default', health_status: 'UNKNOWN', header_name: 'X-LLM-Provider' });
      const bad = await call('POST', '/api/v1/providers', providerBody({ priority: 1001 }));
      t.equal(bad.status, 400);
      t.equal(bad.body.error.code, 'VALIDATION_ERROR');
      t.equal(bad.body.error.details[0].path, 'priority');
      const regex = await call('POST', '/api/v1/providers', providerBody({ match_value: '^/(a)\\1' }));
      t.equal(regex.status, 400, 'a pattern RE2 cannot compile is refused at create time');
      t.equal(regex.body.error.details[0].path, 'match_value');
      const dup = await call('POST', '/api/v1/providers', providerBody({ name: created.body.name }));
      t.equal(dup.status, 409);
    });

    t.test('state moves: DRAFT → ACTIVE → ARCHIVED → ACTIVE; wrong moves are 409', async (t) => {
      const { body: p } = await call('POST', '/api/v1/providers', providerBody());
      t.equal((await call('POST', `/api/v1/providers/${p.id}/archive`)).status, 409, 'a DRAFT cannot be archived');
      t.equal((await call('POST', `/api/v1/providers/${p.id}/activate`)).body.status, 'ACTIVE');
      t.equal((await call('POST', `/api/v1/providers/${p.id}/archive`)).body.status, 'ARCHIVED');
      const edit = await call('PUT', `/api/v1/providers/${p.id}`, { description: 'x' });
      t.equal(edit.status, 409, 'an archived provider is read-only');
      t.equal((await call('POST', `/api/v1/providers/${p.id}/reactivate`)).body.status, 'ACTIVE');
      t.ok(changes > 0, 'every change notifies the publisher');
    });

    t.test('immutable fields are a 400 naming the field; mutable ones change', async (t) => {
      const { body: p } = await call('POST', '/api/v1/providers', providerBody());
      const typeChange = await call('PUT', `/api/v1/providers/${p.id}`, { provider_type: 'vendor_b' });
      t.equal(typeChange.status, 400);
      t.equal(typeChange.body.error.details[0].path, 'provider_type');
      const matchChange = await call('PUT', `/api/v1/providers/${p.id}`, { match_type: 'host' });
      t.equal(matchChange.body.error.details[0].path, 'match_type');
      const ok = await call('PUT', `/api/v1/providers/${p.id}`, { request_timeout_ms: 5000, match_value: '/v2/**', priority: 7 });
      t.match(ok.body, { request_timeout_ms: 5000, match_value: '/v2/**', priority: 7, provider_type: 'vendor_a' });
      const noMapping = await call('PUT', `/api/v1/providers/${p.id}`, { mapping_preset: null });
      t.equal(noMapping.status, 400, 'the merged record must keep a mapping');
    });

    t.test('secrets are sealed at rest and masked in replies', async (t) => {
      const { body: p } = await call('POST', '/api/v1/providers', providerBody({ upstream_auth: { type: 'bearer', token: 'sk-live-123' } }));
      t.same(p.upstream_auth, { type: 'bearer', token: '***' });
      const stored = await registry.store.providers.get(p.id);
      const token = (stored!.upstream_auth as { token: string }).token;
      t.ok(secrets.isSealed(token));
      t.equal(secrets.open(token), 'sk-live-123');
      await call('PUT', `/api/v1/providers/${p.id}`, { upstream_auth: { type: 'bearer', token: '***' }, description: 'kept' });
      const after = await registry.store.providers.get(p.id);
      t.equal(secrets.open((after!.upstream_auth as { token: string }).token), 'sk-live-123', 'a masked value sent back keeps the secret');
    });

    t.test('tenants are isolated', async (t) => {
      const { body: p } = await call('POST', '/api/v1/providers', providerBody(), 'acme');
      t.equal((await call('GET', `/api/v1/providers/${p.id}`, undefined, 'other')).status, 404);
      t.equal((await call('GET', `/api/v1/providers/${p.id}`, undefined, 'acme')).status, 200);
      const list = await call('GET', '/api/v1/providers?limit=1000', undefined, 'acme');
      t.same(list.body.items.map((i: { id: string }) => i.id), [p.id]);
    });

    t.test('profiles: only ACTIVE providers; one active profile per provider', async (t) => {
      const { body: draft } = await call('POST', '/api/v1/providers', providerBody());
      const refused = await call('POST', '/api/v1/profiles', { name: `pr-${randomUUID().slice(0, 6)}`, provider_id: draft.id });
      t.equal(refused.status, 409);
      await call('POST', `/api/v1/providers/${draft.id}/activate`);
      const a = await call('POST', '/api/v1/profiles', { name: `pa-${randomUUID().slice(0, 6)}`, provider_id: draft.id, jailbreak_threshold: 0.7, pii_types: ['EMAIL'] });
      t.equal(a.status, 201);
      t.equal(a.body.threat_detection.jailbreak_threshold, 0.7, 'top-level alias mapped');
      t.equal((await call('POST', `/api/v1/profiles/${a.body.id}/activate`)).body.status, 'ACTIVE');
      const b = await call('POST', '/api/v1/profiles', { name: `pb-${randomUUID().slice(0, 6)}`, provider_id: draft.id });
      const second = await call('POST', `/api/v1/profiles/${b.body.id}/activate`);
      t.equal(second.status, 409, 'a second active profile for the provider');
      const put = await call('PUT', `/api/v1/profiles/${a.body.id}`, { event_logging: { log_allow_decisions: true } });
      t.equal(put.body.event_logging.log_allow_decisions, true);
      t.same(put.body.pii.types, ['EMAIL'], 'a partial update keeps what it does not name');
      const got = await call('GET', `/api/v1/profiles/${a.body.id}`);
      t.equal(got.body.id, a.body.id);
      t.equal(got.headers.warning, undefined, 'a profile without surprises has no warning');
    });

    t.test('profiles: settings whose effect is easy to miss are answered as Warning headers, not refused', async (t) => {
      const { body: provider } = await call('POST', '/api/v1/providers', providerBody());
      await call('POST', `/api/v1/providers/${provider.id}/activate`);
      const created = await call('POST', '/api/v1/profiles', { name: `pw-${randomUUID().slice(0, 6)}`, provider_id: provider.id, response_scanning: { content_safety_enabled: true } });
      t.equal(created.status, 201);
      t.match(String(created.headers.warning), /^299 - ".*streamed answers are buffered and sent when complete"$/);
      const off = await call('PUT', `/api/v1/profiles/${created.body.id}`, { response_scanning: { enabled: false, pii_mode: 'mask' } });
      const warnings = [off.headers.warning].flat().map(String);
      t.equal(warnings.length, 2, 'one header line per warning');
      t.match(warnings[0], /answers are not checked/);
      t.match(warnings[1], /answers are not scanned for PII/);
      t.match(String((await call('GET', `/api/v1/profiles/${created.body.id}`)).headers.warning), /answers are not checked/);
      t.match(String((await call('POST', `/api/v1/profiles/${created.body.id}/activate`)).headers.warning), /answers are not checked/);
    });

    t.test('sync/force and health-check', async (t) => {
      t.same((await call('POST', '/api/v1/sync/force')).body, { status: 'ok', revision: 'rev-test' });
      const { body: p } = await call('POST', '/api/v1/providers', providerBody());
      t.match((await call('POST', `/api/v1/providers/${p.id}/health-check?performed_by=alice`)).body, { health_status: 'HEALTHY' });
      t.equal((await call('GET', `/api/v1/providers/${randomUUID()}`)).status, 404);
    });

    t.test('match: the winning ACTIVE provider of the tenant, its active profile and the candidates', async (t) => {
      const tenant = `m-${randomUUID().slice(0, 6)}`;
      const make = async (over: Record<string, unknown>) => {
        const { body } = await call('POST', '/api/v1/providers', providerBody(over), tenant);
        await call('POST', `/api/v1/providers/${body.id}/activate`, undefined, tenant);
        return body;
      };
      const wide = await make({ match_value: '/v1/**', priority: 10 });
      const narrow = await make({ match_value: '/v1/chat/*', priority: 500 });
      const byHost = await make({ match_type: 'host', match_value: '*.example.com' });
      const byHeader = await make({ match_type: 'header', match_value: 'team-a' });
      await call('POST', '/api/v1/providers', providerBody({ match_value: '/draft/**' }), tenant);
      const profile = await call('POST', '/api/v1/profiles', { name: `pr-${randomUUID().slice(0, 6)}`, provider_id: narrow.id }, tenant);
      await call('POST', `/api/v1/profiles/${profile.body.id}/activate`, undefined, tenant);

      const url = await call('POST', '/api/v1/match', { tenant_id: tenant, original_uri: '/v1/chat/completions?x=1' });
      t.equal(url.status, 200);
      t.equal(url.body.provider.id, narrow.id, 'the higher priority wins');
      t.equal(url.body.profile.id, profile.body.id);
      t.same(url.body.candidates.map((c: { id: string }) => c.id), [narrow.id, wide.id], 'the conflict is visible');
      const other = await call('POST', '/api/v1/match', { original_uri: '/v1/embeddings' }, tenant);
      t.equal(other.body.provider.id, wide.id, 'the tenant comes from X-Tenant-ID when the body has none');
      t.equal(other.body.profile, null);
      t.equal((await call('POST', '/api/v1/match', { tenant_id: tenant, host: 'api.example.com:443' })).body.provider.id, byHost.id);
      t.equal((await call('POST', '/api/v1/match', { tenant_id: tenant, host: 'example.com' })).status, 404, 'the bare domain is not a subdomain');
      t.equal((await call('POST', '/api/v1/match', { tenant_id: tenant, header: 'team-a' })).body.provider.id, byHeader.id);
      t.equal((await call('POST', '/api/v1/match', { tenant_id: tenant, original_uri: '/draft/x' })).status, 404, 'DRAFT is not routed');
      t.equal((await call('POST', '/api/v1/match', { original_uri: '/v1/chat/x' }, 'nobody')).status, 404, 'another tenant sees nothing');
      t.equal((await call('POST', '/api/v1/match', { tenant_id: 5 })).status, 400);
    });

    t.test('content policies: DRAFT → ACTIVE, RE2 checked at create and update, 400 naming the rule', async (t) => {
      const before = changes;
      const bad = await call('POST', '/api/v1/content-policies', { name: 'bad-regex', type: 'blocklist', rules: [{ kind: 'keyword', pattern: 'ok' }, { kind: 'regex', pattern: '(a)\\1' }] });
      t.equal(bad.status, 400);
      t.equal(bad.body.error.code, 'VALIDATION_ERROR');
      t.equal(bad.body.error.details[0].path, 'rules.1.pattern', 'the rule is named');
      const empty = await call('POST', '/api/v1/content-policies', { name: 'no-rules', type: 'blocklist', rules: [] });
      t.equal(empty.status, 400);
      const created = await call('POST', '/api/v1/content-policies', { name: `cp-${randomUUID().slice(0, 6)}`, type: 'blocklist', rules: [{ kind: 'regex', pattern: '(?i)secret\\s+plan' }], scope: 'input' });
      t.equal(created.status, 201);
      t.match(created.body, { status: 'DRAFT', scope: 'request', case_sensitive: false, action: 'block', tenant_id: 'default' });
      t.ok(changes > before, 'a change rebuilds the bundle');
      const breaking = await call('PUT', `/api/v1/content-policies/${created.body.id}`, { rules: [{ kind: 'regex', pattern: '(?<=x)y' }] });
      t.equal(breaking.status, 400, 'an update RE2 refuses is a 400 too');
      t.equal(breaking.body.error.details[0].path, 'rules.0.pattern');
      const activated = await call('POST', `/api/v1/content-policies/${created.body.id}/activate`);
      t.equal(activated.body.status, 'ACTIVE');
      t.equal((await call('POST', `/api/v1/content-policies/${created.body.id}/activate`)).status, 409);
      t.equal((await call('GET', `/api/v1/content-policies/${created.body.id}`, undefined, 'other')).status, 404);
      t.equal((await call('DELETE', `/api/v1/content-policies/${created.body.id}`)).status, 204);
    });

    t.test('api keys: the clear key once, the hash stored, revocation and tenant isolation', async (t) => {
      const before = changes;
      const created = await call('POST', '/api/v1/api-keys', { name: 'ci', rate_limit_per_minute: 5 });
      t.equal(created.status, 201);
      t.match(created.body.key, /^pk_[A-Za-z0-9_-]{43}$/);
      t.equal(created.body.key_prefix, created.body.key.slice(0, 10));
      t.notOk('key_hash' in created.body, 'the hash is never returned');
      t.ok(changes > before, 'a new key rebuilds the bundle');
      const stored = await registry.store.apiKeys.get(created.body.id);
      t.equal(stored!.key_hash, createHash('sha256').update(created.body.key).digest('hex'));
      const got = await call('GET', `/api/v1/api-keys/${created.body.id}`);
      t.notOk('key' in got.body, 'the clear key is shown only at creation');
      t.equal((await call('GET', '/api/v1/api-keys')).body.items.length >= 1, true);
      t.equal((await call('GET', `/api/v1/api-keys/${created.body.id}`, undefined, 'other')).status, 404);
      const revoked = await call('PUT', `/api/v1/api-keys/${created.body.id}`, { revoked: true });
      t.equal(revoked.body.revoked, true);
      t.equal((await call('POST', '/api/v1/api-keys', { rate_limit_per_minute: 0 })).status, 400);
      t.equal((await call('DELETE', `/api/v1/api-keys/${created.body.id}`)).status, 204);
      t.equal((await call('GET', `/api/v1/api-keys/${created.body.id}`)).status, 404);
    });
  });
});
