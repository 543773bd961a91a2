// Routing rules 1-8 of the spec and live configuration, through real servers: mock LLM, registry,
// bundle store and gateway on loopback.
import t from 'tap';
import { forOneDatabase } from '@palisade/core/testing';
import { startStack } from '../testing/stack.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const chat = (content: string, extra: Record<string, unknown> = {}) => ({ model: 'gpt-x', messages: [{ role: 'user', content }], ...extra });

t.test('gateway routing over real HTTP', async (t) => {
  await forOneDatabase(t, async (t, db) => {
    const stack = await startStack({ db, streams: db.kind === 'postgres' ? 'redis' : 'memory' });
    t.teardown(() => stack.close());

    t.test('an OpenAI-SDK-style call straight at the gateway', async (t) => {
      const provider = await stack.provider({ match_value: '/v1/chat/completions' });
      stack.mock.reset();
      const res = await stack.call('POST', '/v1/chat/completions', {
        body: chat('hello from the sdk'),
        headers: { authorization: 'Bearer sk-client', 'user-agent': 'OpenAI/JS 4.0', 'x-stainless-lang': 'js' },
      });
      t.equal(res.status, 200);
      t.equal(res.json.choices[0].message.content, 'Echo: hello from the sdk');
      t.match(res.headers['x-service-trace-id'], UUID);
      t.equal(res.headers['x-service-upstream-url'], `${stack.mockUrl}/v1/chat/completions`);
      t.equal(res.headers['x-provider-id'], provider.id);
      t.notOk(res.headers['x-profile-id'], 'no profile: no X-Profile-ID');
      t.notOk(res.headers['x-service-decision'], 'no profile: not inspected');
      const seen = stack.mock.requests.at(-1)!;
      t.equal(seen.headers.authorization, 'Bearer sk-client', 'passthrough sends the client Authorization');
      t.equal(seen.headers['x-stainless-lang'], 'js', 'other client headers travel');
      t.same(seen.body, chat('hello from the sdk'), 'the body arrives unchanged');
    });

    t.test('POST /chat with X-Original-URI; X-Trace-ID is kept', async (t) => {
      const provider = await stack.provider({ match_value: '/team-x/**', target_path: '/v1/chat/completions' });
      const res = await stack.call('POST', '/chat', {
        body: chat('via front proxy'),
        headers: { 'x-original-uri': '/team-x/openai/v1/chat?debug=1', 'x-trace-id': '5f0c6b1e-0d7c-4a53-9a55-0a8e8f6a7b10' },
      });
      t.equal(res.status, 200);
      t.equal(res.headers['x-provider-id'], provider.id);
      t.equal(res.headers['x-service-trace-id'], '5f0c6b1e-0d7c-4a53-9a55-0a8e8f6a7b10');
      t.notOk(stack.mock.requests.at(-1)!.headers['x-original-uri'], 'routing headers stay at the gateway');
    });

    t.test('host wildcards match subdomains only; header routing; priority', async (t) => {
      const byHost = await stack.provider({ match_type: 'host', match_value: '*.llm.example.com' });
      const byHeader = await stack.provider({ match_type: 'header', match_value: 'finance-bot' });
      const low = await stack.provider({ match_value: '/prio/**', priority: 10 });
      const high = await stack.provider({ match_value: '/prio/v1/**', priority: 900 });
      const hostRes = await stack.call('POST', '/chat', { body: chat('h'), headers: { host: 'eu.llm.example.com:8443' } });
      t.equal(hostRes.headers['x-provider-id'], byHost.id);
      const bare = await stack.call('POST', '/chat', { body: chat('h'), headers: { host: 'llm.example.com' } });
      t.equal(bare.status, 502, 'the bare domain is not a subdomain');
      t.equal(bare.json.error.code, 'NO_BACKEND_CONFIGURED');
      const headerRes = await stack.call('POST', '/chat', { body: chat('h'), headers: { 'x-llm-provider': 'finance-bot' } });
      t.equal(headerRes.headers['x-provider-id'], byHeader.id);
      const prio = await stack.call('POST', '/chat', { body: chat('p'), headers: { 'x-original-uri': '/prio/v1/chat' } });
      t.equal(prio.headers['x-provider-id'], high.id, 'the higher priority wins');
      const other = await stack.call('POST', '/chat', { body: chat('p'), headers: { 'x-original-uri': '/prio/v2/chat' } });
      t.equal(other.headers['x-provider-id'], low.id);
    });

    t.test('tenants: only the tenant of X-Tenant-ID is a candidate', async (t) => {
      const acme = await stack.provider({ match_value: '/tenant-test/**' }, 'acme');
      const ok = await stack.call('POST', '/chat', { body: chat('t'), headers: { 'x-original-uri': '/tenant-test/x', 'x-tenant-id': 'acme' } });
      t.equal(ok.headers['x-provider-id'], acme.id);
      const miss = await stack.call('POST', '/chat', { body: chat('t'), headers: { 'x-original-uri': '/tenant-test/x' } });
      t.equal(miss.status, 502, 'X-Tenant-ID absent means tenant default');
      t.same(Object.keys(miss.json.error).sort(), ['code', 'message', 'type']);
      t.match(miss.json.error, { code: 'NO_BACKEND_CONFIGURED', type: 'configuration_error' });
      t.notOk(miss.json.error.trace_id, 'no trace_id before routing');
    });

    t.test('DRAFT is not routed; archive stops routing at once; reactivate resumes', async (t) => {
      const draft = await stack.api('POST', '/api/v1/providers', {
        name: 'draft-one', provider_type: 'vendor_a', match_type: 'url', match_value: '/draft/**', target_base_url: stack.mockUrl, mapping_preset: 'vendor_a_chat_completions',
      });
      await stack.synced();
      const drafted = await stack.call('POST', '/chat', { body: chat('d'), headers: { 'x-original-uri': '/draft/x' } });
      t.equal(drafted.json.error.code, 'NO_BACKEND_CONFIGURED');
      await stack.api('POST', `/api/v1/providers/${draft.json.id}/activate`);
      await stack.synced();
      t.equal((await stack.call('POST', '/chat', { body: chat('d'), headers: { 'x-original-uri': '/draft/x' } })).status, 200);
      await stack.api('POST', `/api/v1/providers/${draft.json.id}/archive`);
      await stack.synced();
      const archived = await stack.call('POST', '/chat', { body: chat('d'), headers: { 'x-original-uri': '/draft/x' } });
      t.equal(archived.status, 502);
      t.equal(archived.json.error.code, 'NO_BACKEND_CONFIGURED');
      await stack.api('POST', `/api/v1/providers/${draft.json.id}/reactivate`);
      await stack.synced();
      t.equal((await stack.call('POST', '/chat', { body: chat('d'), headers: { 'x-original-uri': '/draft/x' } })).status, 200);
    });

    t.test('X-Real-Backend fallback: original body and Authorization, no inspection', async (t) => {
      stack.mock.reset();
      const raw = '{"model":"x",  "messages":[{"role":"user","content":"fallback"}]}';
      const res = await stack.call('POST', '/chat', {
        body: raw,
        headers: { 'x-original-uri': '/nowhere', 'x-real-backend': stack.mockUrl, 'x-real-backend-path': '/v1/chat/completions', authorization: 'Bearer fb' },
      });
      t.equal(res.status, 200);
      t.equal(res.json.choices[0].message.content, 'Echo: fallback');
      t.equal(res.headers['x-service-upstream-url'], `${stack.mockUrl}/v1/chat/completions`);
      t.match(res.headers['x-service-trace-id'], UUID);
      t.notOk(res.headers['x-provider-id']);
      const seen = stack.mock.requests.at(-1)!;
      t.equal(seen.headers.authorization, 'Bearer fb');
      t.equal(seen.rawBody, raw, 'the original bytes, spacing included');
      t.notOk(seen.headers['x-real-backend'], 'control headers are not forwarded');

      const noPath = await stack.call('POST', '/chat', { body: chat('x'), headers: { 'x-original-uri': '/nowhere', 'x-real-backend': stack.mockUrl } });
      t.equal(noPath.status, 502);
      t.match(noPath.json.error, { code: 'NO_BACKEND_PATH_CONFIGURED', type: 'configuration_error' });
      const withPath = await stack.call('POST', '/chat', {
        body: chat('x'),
        headers: { 'x-original-uri': '/nowhere', 'x-real-backend': `${stack.mockUrl}/v1`, 'x-real-backend-path': '/chat' },
      });
      t.equal(withPath.status, 400, 'X-Real-Backend with a path is refused');
      t.equal(withPath.json.error.type, 'invalid_request_error');
    });

    t.test('a provider edit applies to the next request; a running request keeps its old timeout', async (t) => {
      const provider = await stack.provider({ match_value: '/live/**', request_timeout_ms: 5000, target_path: '/v1/chat/completions' });
      const slow = { 'x-original-uri': '/live/chat', 'x-mock-delay-ms': '1500' };
      const running = stack.call('POST', '/chat', { body: chat('slow'), headers: slow });
      await new Promise((r) => setTimeout(r, 200));
      const edited = await stack.api('PUT', `/api/v1/providers/${provider.id}`, { request_timeout_ms: 1000 });
      t.equal(edited.status, 200);
      await stack.synced();
      const next = await stack.call('POST', '/chat', { body: chat('slow'), headers: slow });
      t.equal(next.status, 504, 'the next request has the new 1 s timeout');
      t.match(next.json.error, { code: 'LLM_TIMEOUT', type: 'llm_error' });
      t.match(next.json.error.trace_id, UUID);
      const first = await running;
      t.equal(first.status, 200, 'the running request kept its 5 s timeout');

      await stack.api('PUT', `/api/v1/providers/${provider.id}`, { match_value: '/moved/**' });
      await stack.synced();
      t.equal((await stack.call('POST', '/chat', { body: chat('m'), headers: { 'x-original-uri': '/moved/x' } })).headers['x-provider-id'], provider.id);
      t.equal((await stack.call('POST', '/chat', { body: chat('m'), headers: { 'x-original-uri': '/live/x' } })).status, 502);
    });

    t.test('health and readiness', async (t) => {
      t.equal((await stack.call('GET', '/health/live')).status, 200);
      t.equal((await stack.call('GET', '/health/ready')).status, 200);
    });
  });
});
