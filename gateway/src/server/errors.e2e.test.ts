// The spec's error table and bad input, over real HTTP: every case answers the gateway error format
// and the process keeps serving.
import t from 'tap';
import { createServer } from 'node:net';
import { createMemoryStreams, listen, type BundleData, type BundleProvider } from '@palisade/core';
import { forOneDatabase } from '@palisade/core/testing';
import { compileSnapshot } from '../config/snapshot.js';
import { startStack } from '../testing/stack.js';
import { createUpstreamClient } from '../upstream/index.js';
import { buildGateway } from './build-gateway.js';
import { loadGatewayConfig } from './env.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const chat = (content: string, extra: Record<string, unknown> = {}) => ({ model: 'gpt-x', messages: [{ role: 'user', content }], ...extra });

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

t.test('errors and bad input through the running stack', async (t) => {
  await forOneDatabase(t, async (t, db) => {
    const stack = await startStack({ db, gatewayEnv: { GATEWAY_MAX_BODY_BYTES: '4096' } });
    t.teardown(() => stack.close());
    const provider = await stack.provider({ match_value: '/v1/chat/completions', request_timeout_ms: 1000 });
    const send = (headers: Record<string, string> = {}, body: unknown = chat('x')) => stack.call('POST', '/v1/chat/completions', { body, headers });

    t.test('upstream 4xx/5xx pass through with their bodies', async (t) => {
      const res = await send({ 'x-mock-status': '429' });
      t.equal(res.status, 429);
      t.equal(res.json.error.type, 'rate_limit_exceeded', "the vendor's own error body");
      t.equal(res.headers['x-provider-id'], provider.id);
      const five = await send({ 'x-mock-status': '503' });
      t.equal(five.status, 503);
      t.ok(five.json.error, 'the upstream body, not ours');
    });

    t.test('request_timeout_ms exceeded → 504 LLM_TIMEOUT with the trace id', async (t) => {
      const res = await send({ 'x-mock-delay-ms': '1500' });
      t.equal(res.status, 504);
      t.match(res.json.error, { code: 'LLM_TIMEOUT', type: 'llm_error', trace_id: UUID });
      t.equal(res.json.error.trace_id, res.headers['x-service-trace-id']);
    });

    t.test('connection reset and refused → 502 LLM_REQUEST_FAILED', async (t) => {
      const reset = await send({ 'x-mock-close': '1' });
      t.equal(reset.status, 502);
      t.match(reset.json.error, { code: 'LLM_REQUEST_FAILED', type: 'llm_error' });
      const port = await closedPort();
      await stack.provider({ match_value: '/refused/**', target_base_url: `http://127.0.0.1:${port}` });
      const refused = await stack.call('POST', '/chat', { body: chat('x'), headers: { 'x-original-uri': '/refused/x' } });
      t.equal(refused.status, 502);
      t.equal(refused.json.error.code, 'LLM_REQUEST_FAILED');
      t.match(refused.json.error.message, /refused/i);
      const dns = await stack.provider({ match_value: '/dns/**', target_base_url: 'http://no-such-host.invalid' });
      const unresolved = await stack.call('POST', '/chat', { body: chat('x'), headers: { 'x-original-uri': '/dns/x' } });
      t.equal(unresolved.status, 502);
      t.equal(unresolved.json.error.code, 'LLM_REQUEST_FAILED');
      t.equal(unresolved.headers['x-provider-id'], dns.id);
    });

    t.test('bad input: non-JSON 400 with trace_id, too large 413, GET 405', async (t) => {
      const notJson = await send({ 'content-type': 'application/json' }, '{"model": ');
      t.equal(notJson.status, 400);
      t.match(notJson.json.error, { code: 'INVALID_REQUEST', type: 'invalid_request_error', trace_id: UUID });
      const text = await send({ 'content-type': 'text/plain' }, 'hello');
      t.equal(text.status, 400, 'a body that is not JSON, whatever its type');
      const empty = await stack.call('POST', '/v1/chat/completions');
      t.equal(empty.status, 400, 'no body');
      const large = await send({}, chat('x'.repeat(5000)));
      t.equal(large.status, 413);
      t.match(large.json.error, { code: 'PAYLOAD_TOO_LARGE', type: 'invalid_request_error' });
      const get = await stack.call('GET', '/chat');
      t.equal(get.status, 405);
      t.equal(get.headers.allow, 'POST');
      t.match(get.json.error, { code: 'METHOD_NOT_ALLOWED', type: 'invalid_request_error' });
      t.equal((await stack.call('DELETE', '/v1/chat/completions')).status, 405);
      t.equal((await stack.call('GET', '/health/live')).status, 200, 'still serving');
    });

    t.test('a wrong preset: empty text, the warning, the call still proxied', async (t) => {
      const wrong = await stack.provider({ match_value: '/wrong-preset/**', mapping_preset: 'vendor_b_completions', target_path: '/v1/chat/completions' });
      // Text is extracted for inspection, i.e. when the provider has a profile.
      const profile = await stack.api('POST', '/api/v1/profiles', { name: 'wrong-preset-profile', provider_id: wrong.id });
      await stack.api('POST', `/api/v1/profiles/${profile.json.id}/activate`);
      await stack.synced();
      const before = stack.logs.length;
      const res = await stack.call('POST', '/chat', { body: chat('hello'), headers: { 'x-original-uri': '/wrong-preset/x' } });
      t.equal(res.status, 200);
      const warning = stack.logs.slice(before).find((l) => l.msg === 'failed to extract prompt');
      t.ok(warning, 'logged: failed to extract prompt');
      t.equal(warning?.provider_id, wrong.id);
      t.equal(warning?.trace_id, res.headers['x-service-trace-id']);
      t.equal(res.headers['x-profile-id'], profile.json.id);
      const right = stack.logs.length;
      await send();
      t.notOk(stack.logs.slice(right).some((l) => l.msg === 'failed to extract prompt'), 'no warning when the preset fits');
    });

    t.test('stream: true is forwarded and the SSE answer returned whole', async (t) => {
      stack.mock.reset();
      const res = await send({}, chat('stream me please', { stream: true }));
      t.equal(res.status, 200);
      t.match(res.headers['content-type'], /text\/event-stream/);
      t.equal(stack.mock.requests.at(-1)!.body && (stack.mock.requests.at(-1)!.body as { stream: boolean }).stream, true, 'stream forwarded as is');
      t.match(res.text, /data: \[DONE\]\s*$/, 'every frame up to the end marker');
      const text = res.text
        .split('\n')
        .filter((l) => l.startsWith('data: {'))
        .map((l) => JSON.parse(l.slice(6)).choices[0]?.delta?.content ?? '')
        .join('');
      t.equal(text, 'Echo: stream me please');
    });
  });
});

t.test('PROVIDER_MISSING_TARGET and MISSING_FIELD_MAPPING (records the registry would refuse, e.g. from a bundle)', async (t) => {
  const streams = createMemoryStreams();
  const upstream = createUpstreamClient({ cache: streams.cache });
  const base = {
    tenant_id: 'default', provider_type: 'custom', match_type: 'url', header_name: 'X-LLM-Provider', priority: 100,
    target_path: '/v1/chat/completions', request_timeout_ms: 30000, description: '', upstream_auth: { type: 'passthrough' },
    managed_by: 'operator', status: 'ACTIVE', created_at: '2024-01-01T00:00:00Z', updated_at: '2024-01-01T00:00:00Z',
  };
  const providers = [
    { ...base, id: '00000000-0000-4000-8000-000000000001', name: 'no-target', match_value: '/no-target', target_base_url: '', mapping_preset: 'vendor_a_chat_completions' },
    { ...base, id: '00000000-0000-4000-8000-000000000002', name: 'no-mapping', match_value: '/no-mapping', target_base_url: 'http://127.0.0.1:9', mapping_preset: null },
  ] as unknown as BundleProvider[];
  const data: BundleData = { providers, profiles: [], content_policies: [], api_keys: [] };
  const snapshot = compileSnapshot('rev', data);
  const { app } = buildGateway({ config: loadGatewayConfig({}), current: () => snapshot, upstream, cache: streams.cache, logLevel: 'silent' });
  const url = await listen(app, { port: 0, host: '127.0.0.1' });
  t.teardown(async () => {
    await app.close();
    await upstream.close();
    await streams.close();
  });
  const post = async (uri: string) => {
    const res = await fetch(`${url}/chat`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-original-uri': uri }, body: JSON.stringify(chat('x')) });
    return { status: res.status, headers: res.headers, json: (await res.json()) as { error: Record<string, unknown> } };
  };
  const noTarget = await post('/no-target');
  t.equal(noTarget.status, 500);
  t.match(noTarget.json.error, { code: 'PROVIDER_MISSING_TARGET', type: 'configuration_error', trace_id: UUID });
  t.equal(noTarget.headers.get('x-provider-id'), providers[0]!.id);
  const noMapping = await post('/no-mapping');
  t.equal(noMapping.status, 500);
  t.match(noMapping.json.error, { code: 'MISSING_FIELD_MAPPING', type: 'internal_error' });
});

t.test('before the first bundle the gateway is not ready and answers 503', async (t) => {
  const streams = createMemoryStreams();
  const upstream = createUpstreamClient({ cache: streams.cache });
  const { app } = buildGateway({ config: loadGatewayConfig({}), current: () => null, upstream, cache: streams.cache, logLevel: 'silent' });
  t.ok(app.hasRequestDecorator('routedTenant') && app.hasRequestDecorator('traceId'), 'the request properties a call sets are declared (one shape for all requests)');
  const url = await listen(app, { port: 0, host: '127.0.0.1' });
  t.teardown(async () => {
    await app.close();
    await upstream.close();
    await streams.close();
  });
  t.equal((await fetch(`${url}/health/ready`)).status, 503);
  const res = await fetch(`${url}/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  t.equal(res.status, 503);
  t.match(await res.json(), { error: { code: 'SERVICE_UNAVAILABLE' } });
});
