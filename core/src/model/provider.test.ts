import t from 'tap';
import { z } from 'zod';
import {
  MAPPING_PRESET_NAMES,
  PROVIDER_TYPES,
  Provider,
  ProviderCreate,
  ProviderSpec,
  ProviderUpdate,
  matchValueIssue,
} from './provider.js';
import { issuePaths, issuesOf, parseOk } from '../testing/model.js';

const base = {
  name: 'openai-prod',
  provider_type: 'vendor_a',
  match_type: 'url',
  match_value: '/v1/chat/**',
  target_base_url: 'https://api.example.com',
  mapping_preset: 'vendor_a_chat_completions',
};
const withField = (patch: Record<string, unknown>) => ({ ...base, ...patch });

t.test('a minimal provider gets every default', async (t) => {
  const p = parseOk(ProviderCreate, base);
  t.equal(p.priority, 100);
  t.equal(p.header_name, 'X-LLM-Provider');
  t.equal(p.target_path, '/v1/chat/completions');
  t.equal(p.request_timeout_ms, 30000);
  t.equal(p.description, '');
  t.same(p.upstream_auth, { type: 'passthrough' });
});

t.test('name is 1-255 characters', async (t) => {
  t.same(issuePaths(ProviderCreate, withField({ name: '' })), ['name']);
  t.same(issuePaths(ProviderCreate, withField({ name: '   ' })), ['name']);
  t.same(issuePaths(ProviderCreate, withField({ name: 'x'.repeat(256) })), ['name']);
  t.same(issuePaths(ProviderCreate, withField({ name: 'x'.repeat(255) })), []);
  t.same(issuePaths(ProviderCreate, withField({ name: 'x' })), []);
  const { name: _, ...noName } = base;
  t.same(issuePaths(ProviderCreate, noName), ['name']);
});

t.test('provider_type and match_type are enums', async (t) => {
  for (const type of PROVIDER_TYPES) t.same(issuePaths(ProviderCreate, withField({ provider_type: type })), [], type);
  t.equal(PROVIDER_TYPES.length, 10);
  t.same(issuePaths(ProviderCreate, withField({ provider_type: 'vendor_z' })), ['provider_type']);
  t.same(issuePaths(ProviderCreate, withField({ match_type: 'path' })), ['match_type']);
});

t.test('priority is an integer 1-1000', async (t) => {
  t.same(issuePaths(ProviderCreate, withField({ priority: 0 })), ['priority']);
  t.same(issuePaths(ProviderCreate, withField({ priority: 1001 })), ['priority']);
  t.same(issuePaths(ProviderCreate, withField({ priority: 10.5 })), ['priority']);
  t.same(issuePaths(ProviderCreate, withField({ priority: '5' })), ['priority']);
  t.same(issuePaths(ProviderCreate, withField({ priority: 1 })), []);
  t.same(issuePaths(ProviderCreate, withField({ priority: 1000 })), []);
});

t.test('request_timeout_ms is an integer 1000-600000', async (t) => {
  t.same(issuePaths(ProviderCreate, withField({ request_timeout_ms: 999 })), ['request_timeout_ms']);
  t.same(issuePaths(ProviderCreate, withField({ request_timeout_ms: 600001 })), ['request_timeout_ms']);
  t.same(issuePaths(ProviderCreate, withField({ request_timeout_ms: 1000 })), []);
  t.same(issuePaths(ProviderCreate, withField({ request_timeout_ms: 600000 })), []);
});

t.test('description is at most 1000 characters', async (t) => {
  t.same(issuePaths(ProviderCreate, withField({ description: 'd'.repeat(1001) })), ['description']);
  t.same(issuePaths(ProviderCreate, withField({ description: 'd'.repeat(1000) })), []);
});

t.test('target_base_url is http(s), scheme and host only', async (t) => {
  for (const url of ['https://api.example.com', 'https://api.example.com/', 'http://localhost:8080', 'http://10.0.0.1:11434']) {
    t.same(issuePaths(ProviderCreate, withField({ target_base_url: url })), [], url);
  }
  for (const url of [
    'https://api.example.com/v1',
    'https://api.example.com/v1/chat/completions',
    'ftp://files.example.com',
    'api.example.com',
    'https://api.example.com?x=1',
    'https://user:pass@api.example.com',
    'https://',
  ]) {
    const paths = issuePaths(ProviderCreate, withField({ target_base_url: url }));
    t.ok(paths.length > 0 && paths.every((p) => p === 'target_base_url'), url);
  }
  const msgs = issuesOf(ProviderCreate, withField({ target_base_url: 'https://api.example.com/v1' })).map((i) => i.message);
  t.match(msgs.join(), /endpoint path/);
  const ftp = issuesOf(ProviderCreate, withField({ target_base_url: 'ftp://x.example.com' })).map((i) => i.message);
  t.match(ftp.join(), /http:\/\/ or https:\/\//);
});

t.test("target_path starts with '/'", async (t) => {
  t.same(issuePaths(ProviderCreate, withField({ target_path: 'v1/chat/completions' })), ['target_path']);
  t.same(issuePaths(ProviderCreate, withField({ target_path: '/v1/chat completions' })), ['target_path']);
  t.same(issuePaths(ProviderCreate, withField({ target_path: '/openai/deployments/gpt4/chat/completions?api-version=2024-02-01' })), []);
});

t.test('header_name is an HTTP header name', async (t) => {
  t.same(issuePaths(ProviderCreate, withField({ match_type: 'header', match_value: 'openai', header_name: 'X LLM' })), ['header_name']);
  const p = parseOk(ProviderCreate, withField({ match_type: 'header', match_value: 'openai' }));
  t.equal(p.header_name, 'X-LLM-Provider');
});

t.test('match_value must fit match_type', async (t) => {
  const ok: [string, string][] = [
    ['url', '/v1/chat/*'],
    ['url', '/v1/**'],
    ['url', '^/v1/(chat|completions)$'],
    ['host', 'api.example.com'],
    ['host', '*.example.com'],
    ['host', 'llm.internal:8443'],
    ['header', 'openai-prod'],
  ];
  for (const [match_type, match_value] of ok) {
    t.same(issuePaths(ProviderCreate, withField({ match_type, match_value })), [], `${match_type} ${match_value}`);
  }
  const bad: [string, string][] = [
    ['url', 'v1/chat'],
    ['host', 'api.example.com/v1'],
    ['host', 'api.*.example.com'],
    ['header', 'a\nb'],
  ];
  for (const [match_type, match_value] of bad) {
    t.same(issuePaths(ProviderCreate, withField({ match_type, match_value })), ['match_value'], `${match_type} ${match_value}`);
  }
  t.same(issuePaths(ProviderCreate, withField({ match_value: '' })), ['match_value']);
  t.equal(matchValueIssue('host', 'x.example.com'), null);
});

t.test('mapping: a preset, a custom mapping, or both', async (t) => {
  for (const name of MAPPING_PRESET_NAMES) t.same(issuePaths(ProviderCreate, withField({ mapping_preset: name })), [], name);
  t.equal(MAPPING_PRESET_NAMES.length, 21);

  const unknown = issuesOf(ProviderCreate, withField({ mapping_preset: 'vendor_x_chat' }));
  t.same(unknown.map((i) => i.path), [['mapping_preset']]);
  t.match(unknown[0]?.message, /unknown mapping preset/);

  const { mapping_preset: _, ...noMapping } = base;
  const neither = issuesOf(ProviderCreate, noMapping);
  t.same(neither.map((i) => i.path), [['mapping_preset']]);
  t.match(neither[0]?.message, /mapping_preset or mapping_custom/);
  t.same(issuePaths(ProviderCreate, { ...noMapping, mapping_preset: null, mapping_custom: null }), ['mapping_preset']);

  t.same(issuePaths(ProviderCreate, { ...noMapping, mapping_custom: { prompt_path: '$.input' } }), []);
  t.same(issuePaths(ProviderCreate, { ...noMapping, mapping_custom: { model_path: '$.model' } }), ['mapping_custom.prompt_path']);
  t.same(
    issuePaths(ProviderCreate, withField({ mapping_custom: { prompt_path: '$.input', response_path: '$.output.text' } })),
    [],
    'both given: custom overrides the preset later',
  );
  t.same(issuePaths(ProviderCreate, { ...noMapping, mapping_custom: { prompt_path: '' } }), ['mapping_custom.prompt_path']);
  t.same(issuePaths(ProviderCreate, { ...noMapping, mapping_custom: { prompt_path: '#.x' } }), ['mapping_custom.prompt_path']);
  for (const path of ['$.field', '$.array[0].field', '$.array[*].field', "$.array[?(@.key=='value')].field", 'messages[*].content', '$[0].generated_text']) {
    t.same(issuePaths(ProviderCreate, { ...noMapping, mapping_custom: { prompt_path: path } }), [], path);
  }
});

t.test('upstream_auth is one of the four forms', async (t) => {
  t.same(issuePaths(ProviderCreate, withField({ upstream_auth: { type: 'bearer', token: 'sk-1' } })), []);
  t.same(issuePaths(ProviderCreate, withField({ upstream_auth: { type: 'bearer' } })), ['upstream_auth.token']);
  const key = parseOk(ProviderCreate, withField({ provider_type: 'vendor_c', upstream_auth: { type: 'api_key_header', key: 'k' } }));
  t.same(key.upstream_auth, { type: 'api_key_header', header: 'api-key', key: 'k' });
  const oauth = {
    type: 'oauth2_client_credentials',
    token_url: 'https://auth.bank.example/oauth/token',
    client_id: 'gw',
    client_secret: 's',
    scope: 'chat',
  };
  t.same(issuePaths(ProviderCreate, withField({ provider_type: 'vendor_i', upstream_auth: oauth })), []);
  t.same(issuePaths(ProviderCreate, withField({ upstream_auth: { ...oauth, client_secret: undefined } })), ['upstream_auth.client_secret']);
  t.same(issuePaths(ProviderCreate, withField({ upstream_auth: { ...oauth, token_url: 'ftp://x' } })), ['upstream_auth.token_url']);
  t.same(issuePaths(ProviderCreate, withField({ upstream_auth: { type: 'basic' } })), ['upstream_auth.type']);
});

t.test('update: partial, no defaults, immutable fields rejected', async (t) => {
  t.same(parseOk(ProviderUpdate, { priority: 5 }), { priority: 5 }, 'nothing else is filled in');
  t.same(parseOk(ProviderUpdate, {}), {});
  for (const field of ['provider_type', 'match_type']) {
    const issues = issuesOf(ProviderUpdate, { [field]: 'x', priority: 5 });
    t.same(issues.map((i) => i.path), [[field]], field);
    t.match(issues[0]?.message, /immutable/);
  }
  t.same(issuePaths(ProviderUpdate, { priority: 0 }), ['priority']);
  t.same(issuePaths(ProviderUpdate, { request_timeout_ms: 600001 }), ['request_timeout_ms']);
  t.same(issuePaths(ProviderUpdate, { target_base_url: 'https://api.example.com/v1' }), ['target_base_url']);
  t.same(issuePaths(ProviderUpdate, { name: 'x'.repeat(256) }), ['name']);
  t.same(issuePaths(ProviderUpdate, { mapping_preset: 'nope' }), ['mapping_preset']);
  t.same(issuePaths(ProviderUpdate, { mapping_custom: { model_path: '$.m' } }), ['mapping_custom.prompt_path']);
  t.same(issuePaths(ProviderUpdate, { mapping_preset: null, mapping_custom: null }), ['mapping_preset']);
  t.same(parseOk(ProviderUpdate, { name: 'renamed', id: 'ignored' }), { name: 'renamed' }, 'read-only fields are dropped');
});

t.test('the stored record', async (t) => {
  const now = new Date().toISOString();
  const record = parseOk(Provider, {
    ...base,
    id: globalThis.crypto.randomUUID(),
    tenant_id: 'acme',
    created_at: now,
    updated_at: now,
  });
  t.equal(record.status, 'DRAFT');
  t.equal(record.health_status, 'UNKNOWN');
  t.equal(record.health_latency_ms, null);
  t.equal(record.health_error_message, null);
  t.equal(record.health_checked_at, null);
  t.equal(record.managed_by, 'api');
  t.same(issuePaths(Provider, { ...record, id: 'nope' }), ['id']);
  t.same(issuePaths(Provider, { ...record, status: 'DELETED' }), ['status']);
  t.same(issuePaths(Provider, { ...record, health_status: 'DOWN' }), ['health_status']);
  t.same(issuePaths(Provider, { ...record, managed_by: 'helm' }), ['managed_by']);
  t.same(issuePaths(Provider, { ...record, created_at: 'yesterday' }), ['created_at']);
});

t.test('the spec converts to JSON Schema (CRD generation)', async (t) => {
  const schema = z.toJSONSchema(ProviderSpec, { io: 'input' }) as { properties: Record<string, { default?: unknown }> };
  t.equal(schema.properties.priority?.default, 100);
  t.equal(schema.properties.target_path?.default, '/v1/chat/completions');
  t.doesNotThrow(() => z.toJSONSchema(Provider));
});
