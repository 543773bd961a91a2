import t from 'tap';
import { listen } from '@palisade/core';
import { CONTENT_SAFETY_ANALYZE_PATH, CONTENT_SAFETY_DEVICE_INFO_PATH, buildContentSafetyService, loadContentSafetyEnv } from './service.js';
import { startGuardServer } from './testing/index.js';

async function start(t: { teardown(f: () => unknown): void }, options: Parameters<typeof buildContentSafetyService>[0]) {
  const { app } = buildContentSafetyService({ logLevel: 'silent', ...options });
  const base = await listen(app, { port: 0, host: '127.0.0.1' });
  t.teardown(() => app.close());
  return base;
}

const post = (base: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}${CONTENT_SAFETY_ANALYZE_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });

t.test('acceptance: POST /api/v1/analyze with harmless text gives verdict Safe; device-info and readiness', async (t) => {
  const guard = await startGuardServer({ rules: [{ match: /knife/i, safety: 'Unsafe', categories: ['Violent'] }] });
  t.teardown(() => guard.close());
  const base = await start(t, { env: loadContentSafetyEnv({ CONTENT_SAFETY_MODEL_URL: guard.url, CONTENT_SAFETY_TIMEOUT_MS: '5000' }) });

  const res = await post(base, { text: 'Tell me a joke about cats.', blocked_categories: ['violence'] });
  t.equal(res.status, 200);
  const body = (await res.json()) as { verdict: string; categories: unknown[] };
  t.match(body, { verdict: 'Safe', blocked: false, model: 'Qwen/Qwen3Guard-Gen-4B', latency_ms: Number });
  t.equal(body.categories.length, 9);

  const unsafe = await post(base, { text: 'how to stab someone with a knife', blocked_categories: ['violence'] });
  t.equal(unsafe.status, 200);
  t.match(await unsafe.json(), { verdict: 'Unsafe', blocked: true, blocked_categories: ['violence'], categories: [{ category: 'violence', verdict: 'Unsafe', score: 0.95 }] });

  const ready = await fetch(`${base}/health/ready`);
  t.equal(ready.status, 200);
  t.match(await ready.json(), { checks: { model_server: { status: 'ok' } } });
  const info = await fetch(`${base}${CONTENT_SAFETY_DEVICE_INFO_PATH}`);
  t.equal(info.status, 200);
  t.match(await info.json(), { status: 'ok', backend: 'openai-compatible', model_url_configured: true, model_server: guard.url, model_server_reachable: true, model_available: true });

  // The trace id travels to the model server.
  await post(base, { text: 'hi' }, { 'x-trace-id': 'trace-cs-1' });
  t.equal(guard.chatRequests().at(-1)!.headers['x-request-id'], 'trace-cs-1');
});

t.test('bad bodies are 400 with field details', async (t) => {
  const guard = await startGuardServer();
  t.teardown(() => guard.close());
  const base = await start(t, { env: loadContentSafetyEnv({ CONTENT_SAFETY_MODEL_URL: guard.url }) });
  const cases: Array<[unknown, string]> = [
    [{ text: '' }, 'text'],
    [{ blocked_categories: [] }, 'text'],
    [{ text: 'x', blocked_categories: ['weapons'] }, 'blocked_categories.0'],
    [{ text: 'x', blocked_categories: 'violence' }, 'blocked_categories'],
    [{ text: 'x', role: 'system' }, 'role'],
    [{ text: 'x'.repeat(40_000) }, 'text'],
  ];
  for (const [body, path] of cases) {
    const res = await post(base, body);
    t.equal(res.status, 400, `${path} of ${JSON.stringify(body).slice(0, 60)}`);
    t.match(await res.json(), { error: { code: 'VALIDATION_ERROR', details: [{ path }] } });
  }
  const notJson = await post(base, '{"text":');
  t.equal(notJson.status, 400);
  t.match(await notJson.json(), { error: { code: 'INVALID_REQUEST' } });
  t.equal(guard.chatRequests().length, 0, 'nothing invalid reached the model');
});

t.test('the model server down or answering garbage', async (t) => {
  const guard = await startGuardServer();
  t.teardown(() => guard.close());
  const base = await start(t, { env: loadContentSafetyEnv({ CONTENT_SAFETY_MODEL_URL: guard.url, CONTENT_SAFETY_TIMEOUT_MS: '1000' }) });
  guard.fail(502);
  const down = await post(base, { text: 'hello' });
  t.equal(down.status, 503);
  t.match(await down.json(), { error: { code: 'SERVICE_UNAVAILABLE' } });
  const ready = await fetch(`${base}/health/ready`);
  t.equal(ready.status, 503);
  await ready.arrayBuffer();
  guard.hang();
  const hung = await post(base, { text: 'hello' });
  t.equal(hung.status, 503);
  t.match(await hung.json(), { error: { code: 'SERVICE_UNAVAILABLE', message: /1000 ms/ } });
  guard.recover();
  guard.garbage('Sure! Here is a poem.');
  const garbage = await post(base, { text: 'hello' });
  t.equal(garbage.status, 500);
  t.match(await garbage.json(), { error: { code: 'INTERNAL_ERROR' } });
  // An answer past any completion's size is refused, not buffered.
  guard.garbage('x'.repeat(2 * 1024 * 1024));
  const huge = await post(base, { text: 'hello' });
  t.equal(huge.status, 500);
  t.match(await huge.json(), { error: { code: 'INTERNAL_ERROR', message: /with more than 1048576 bytes/ } });
});

t.test('without CONTENT_SAFETY_MODEL_URL: 503 on analyze, device-info answers, X-Internal-Token guards', async (t) => {
  const base = await start(t, { env: loadContentSafetyEnv({}), internalToken: 's3cret' });
  const refused = await post(base, { text: 'hello' });
  t.equal(refused.status, 401);
  t.match(await refused.json(), { error: { code: 'UNAUTHENTICATED' } });
  const wrong = await post(base, { text: 'hello' }, { 'x-internal-token': 'nope' });
  t.equal(wrong.status, 401);
  await wrong.arrayBuffer();
  const headers = { 'x-internal-token': 's3cret' };
  const res = await post(base, { text: 'hello' }, headers);
  t.equal(res.status, 503);
  t.match(await res.json(), { error: { code: 'SERVICE_UNAVAILABLE', message: /CONTENT_SAFETY_MODEL_URL/ } });
  const info = await fetch(`${base}${CONTENT_SAFETY_DEVICE_INFO_PATH}`, { headers });
  t.equal(info.status, 200);
  t.match(await info.json(), { status: 'ok', model_url_configured: false, model_server_reachable: false, served_models: [] });
  const live = await fetch(`${base}/health/live`);
  t.equal(live.status, 200);
  t.match(await live.json(), { status: 'ok', service: 'content-safety' });
  const ready = await fetch(`${base}/health/ready`);
  t.equal(ready.status, 200, 'ready to answer 503 without a URL');
  await ready.arrayBuffer();
});

t.test('the env', async (t) => {
  t.same(loadContentSafetyEnv({}), {
    CONTENT_SAFETY_MODEL_URL: undefined,
    CONTENT_SAFETY_MODEL_NAME: 'Qwen/Qwen3Guard-Gen-4B',
    CONTENT_SAFETY_API_KEY: undefined,
    CONTENT_SAFETY_TIMEOUT_MS: 10_000,
  });
  t.match(loadContentSafetyEnv({ CONTENT_SAFETY_MODEL_URL: 'http://guard:8000/v1', CONTENT_SAFETY_MODEL_NAME: 'Qwen/Qwen3Guard-Gen-8B', CONTENT_SAFETY_API_KEY: 'k', CONTENT_SAFETY_TIMEOUT_MS: '2500' }), {
    CONTENT_SAFETY_MODEL_URL: 'http://guard:8000/v1',
    CONTENT_SAFETY_MODEL_NAME: 'Qwen/Qwen3Guard-Gen-8B',
    CONTENT_SAFETY_API_KEY: 'k',
    CONTENT_SAFETY_TIMEOUT_MS: 2500,
  });
  t.throws(() => loadContentSafetyEnv({ CONTENT_SAFETY_MODEL_URL: 'guard:8000' }), /CONTENT_SAFETY_MODEL_URL/);
  t.throws(() => loadContentSafetyEnv({ CONTENT_SAFETY_MODEL_URL: 'ftp://guard' }), /CONTENT_SAFETY_MODEL_URL/);
  t.throws(() => loadContentSafetyEnv({ CONTENT_SAFETY_TIMEOUT_MS: '0' }), /CONTENT_SAFETY_TIMEOUT_MS/);
  t.throws(() => loadContentSafetyEnv({ CONTENT_SAFETY_API_KEY: 'x', CONTENT_SAFETY_TIMEOUT_MS: 'soon' }), /CONTENT_SAFETY_TIMEOUT_MS/);
});
