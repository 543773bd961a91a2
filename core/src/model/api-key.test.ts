import t from 'tap';
import { ApiKey, ApiKeyCreate, ApiKeyCreated, ApiKeyPublic, ApiKeyUpdate } from './api-key.js';
import { issuePaths, parseOk } from '../testing/model.js';

t.test('create', async (t) => {
  t.same(parseOk(ApiKeyCreate, { name: 'ci' }), { name: 'ci' });
  t.same(parseOk(ApiKeyCreate, { name: 'ci', rate_limit_per_minute: 60 }), { name: 'ci', rate_limit_per_minute: 60 });
  for (const v of [0, -5, 1.5]) t.same(issuePaths(ApiKeyCreate, { name: 'ci', rate_limit_per_minute: v }), ['rate_limit_per_minute'], `${v}`);
  t.same(issuePaths(ApiKeyCreate, {}), ['name']);
});

t.test('the stored key never goes out with its hash', async (t) => {
  const key = parseOk(ApiKey, {
    id: globalThis.crypto.randomUUID(),
    name: 'ci',
    tenant_id: 'acme',
    key_prefix: 'pk_live_ab',
    key_hash: 'a'.repeat(64),
    created_at: new Date().toISOString(),
  });
  t.equal(key.revoked, false);
  t.equal(key.last_used_at, null);
  t.equal(key.rate_limit_per_minute, null);
  t.same(issuePaths(ApiKey, { ...key, key_hash: 'xyz' }), ['key_hash']);
  t.notOk('key_hash' in parseOk(ApiKeyPublic, key));
  t.equal(parseOk(ApiKeyCreated, { ...key, key: 'pk_live_abcdef' }).key, 'pk_live_abcdef');
});

t.test('update', async (t) => {
  t.same(parseOk(ApiKeyUpdate, { rate_limit_per_minute: null }), { rate_limit_per_minute: null });
  t.same(parseOk(ApiKeyUpdate, { revoked: true }), { revoked: true });
  t.same(issuePaths(ApiKeyUpdate, { rate_limit_per_minute: 0 }), ['rate_limit_per_minute']);
});
