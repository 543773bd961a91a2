// Server lifecycle, health, request recording, reset and request validation.
import t from 'tap';
import { createMockLlm } from './server.js';
import { call, startMock } from './testing/index.js';

t.test('listen returns a base URL; health answers on /health and /', async (t) => {
  const { url, mock } = await startMock(t);
  t.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
  t.equal(mock.url, url);
  const health = await call(`${url}/health`);
  t.equal(health.status, 200);
  t.same(health.json, { status: 'ok' });
  t.equal((await call(`${url}/`)).status, 200);
});

t.test('every request is recorded: method, path with query, headers, body', async (t) => {
  const { url, mock } = await startMock(t);
  await call(`${url}/v1/chat/completions?trace=1`, { body: { messages: [{ role: 'user', content: 'rec' }] }, headers: { authorization: 'Bearer abc', 'x-extra': 'yes' } });
  await call(`${url}/nowhere`, { body: 'plain text', headers: { 'content-type': 'text/plain' } });
  await call(`${url}/health`);
  t.equal(mock.requests.length, 3);
  const [first, second, third] = mock.requests;
  t.equal(first?.method, 'POST');
  t.equal(first?.path, '/v1/chat/completions?trace=1');
  t.equal(first?.headers.authorization, 'Bearer abc');
  t.equal(first?.headers['x-extra'], 'yes');
  t.same(first?.body, { messages: [{ role: 'user', content: 'rec' }] });
  t.equal(first?.rawBody, JSON.stringify({ messages: [{ role: 'user', content: 'rec' }] }));
  t.equal(first?.route, 'vendor_a.chat');
  t.type(first?.receivedAt, 'number');
  t.equal(second?.path, '/nowhere');
  t.equal(second?.body, 'plain text');
  t.equal(second?.route, undefined);
  t.equal(third?.method, 'GET');
  t.equal(third?.body, undefined);

  const held = mock.requests;
  mock.reset();
  t.equal(held.length, 0, 'reset() empties the same array');
  t.equal(mock.requests, held);
});

t.test('unknown route is a JSON 404', async (t) => {
  const { url } = await startMock(t);
  const r = await call(`${url}/v9/nothing`, { body: {} });
  t.equal(r.status, 404);
  t.match(r.json.error.message, /no route POST \/v9\/nothing/);
});

t.test('broken or incomplete bodies get a vendor-style 400 (and are recorded as sent)', async (t) => {
  const { url, mock } = await startMock(t);
  const broken = await call(`${url}/v1/chat/completions`, { body: '{"messages": [' });
  t.equal(broken.status, 400);
  t.type(broken.json.error.message, 'string');
  t.equal(mock.requests[0]?.body, '{"messages": [');
  const missing = await call(`${url}/v1/messages`, { body: { model: 'x' } });
  t.equal(missing.status, 400);
  t.same(missing.json, { type: 'error', error: { type: 'invalid_request_error', message: "'messages' is required" } });
});

t.test('the echo is configurable; instances are independent', async (t) => {
  const { url: a } = await startMock(t, { echo: (p) => `<<${p}>>` });
  const { url: b, mock: mb } = await startMock(t);
  const body = { prompt: 'x' };
  t.same((await call(`${a}/custom`, { body })).json.response, '<<x>>');
  t.same((await call(`${b}/custom`, { body })).json.response, 'Echo: x');
  t.equal(mb.requests.length, 1);
});

t.test('routes can be replaced through options', async (t) => {
  const { url } = await startMock(t, {
    routes: [{ kind: 'plain', vendor: 'mock', name: 'only', method: 'GET', paths: ['/only'], handle: () => ({ body: { only: true } }), error: (s, m) => ({ m }) }],
  });
  t.same((await call(`${url}/only`)).json, { only: true });
  t.equal((await call(`${url}/health`)).status, 404);
});

t.test('close() without listen, and twice, is fine', async (t) => {
  const mock = createMockLlm();
  await mock.close();
  await mock.close();
  t.pass();
});

t.test('recordLimit keeps the most recent requests; 0 turns recording off', async (t) => {
  const { url, mock } = await startMock(t, { recordLimit: 10 });
  for (let i = 0; i < 25; i += 1) await call(`${url}/health?i=${i}`);
  t.ok(mock.requests.length >= 10 && mock.requests.length <= 11, `kept ${mock.requests.length}`);
  t.equal(mock.requests.at(-1)?.path, '/health?i=24');
  const { url: quiet, mock: off } = await startMock(t, { recordLimit: 0 });
  await call(`${quiet}/health`);
  t.equal(off.requests.length, 0);
});
