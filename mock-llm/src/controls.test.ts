// Per-request controls: reply, reply-json, delay, status, close, hang (headers and query).
import t from 'tap';
import { call, startMock } from './testing/index.js';

const chatBody = { messages: [{ role: 'user', content: 'my email is a@b.c' }] };

t.test('x-mock-reply sets the answer text exactly', async (t) => {
  const { url } = await startMock(t);
  const r = await call(`${url}/v1/chat/completions`, { body: chatBody, headers: { 'x-mock-reply': 'leak: john@example.com' } });
  t.equal(r.json.choices[0].message.content, 'leak: john@example.com');
  const viaQuery = await call(`${url}/v1/messages?x-mock-reply=${encodeURIComponent('Иван, +7 999 123-45-67')}`, { body: chatBody });
  t.equal(viaQuery.json.content[0].text, 'Иван, +7 999 123-45-67', 'query parameters carry UTF-8');
});

t.test('x-mock-reply sent as raw UTF-8 header bytes is decoded', async (t) => {
  const { url } = await startMock(t);
  const { request } = await import('undici');
  // undici passes latin1 strings byte for byte, so this sends the UTF-8 bytes of the text.
  const res = await request(`${url}/custom`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-mock-reply': Buffer.from('Пётр', 'utf8').toString('latin1') },
    body: JSON.stringify({ prompt: 'p' }),
  });
  t.same(await res.body.json(), { response: 'Пётр', model: 'mock-model' });
});

t.test('x-mock-reply-json returns that exact JSON body, with x-mock-status when given', async (t) => {
  const { url } = await startMock(t);
  const custom = { choices: [{ message: { content: 'raw' } }], extra: [1, 2] };
  const r = await call(`${url}/v1/chat/completions`, { body: chatBody, headers: { 'x-mock-reply-json': JSON.stringify(custom) } });
  t.equal(r.status, 200);
  t.same(r.json, custom);
  const err = await call(`${url}/v1/chat/completions`, { body: chatBody, headers: { 'x-mock-reply-json': '{"weird":true}', 'x-mock-status': '418' } });
  t.equal(err.status, 418);
  t.same(err.json, { weird: true });
  const bad = await call(`${url}/v1/chat/completions`, { body: chatBody, headers: { 'x-mock-reply-json': '{nope' } });
  t.equal(bad.status, 400, 'unusable control value is a 400');
});

t.test('x-mock-delay-ms waits before answering', async (t) => {
  const { url } = await startMock(t);
  for (const [label, init] of [
    ['header', { headers: { 'x-mock-delay-ms': '150' } }],
    ['query', { headers: {} }],
  ] as const) {
    const started = performance.now();
    const path = label === 'query' ? '/v1/chat/completions?x-mock-delay-ms=150' : '/v1/chat/completions';
    const r = await call(`${url}${path}`, { body: chatBody, ...init });
    const took = performance.now() - started;
    t.equal(r.status, 200, label);
    t.ok(took >= 150, `${label}: took ${took.toFixed(0)} ms >= 150 ms`);
  }
});

t.test('x-mock-status answers that status with a vendor-style error body', async (t) => {
  const { url } = await startMock(t);
  const a = await call(`${url}/v1/chat/completions`, { body: chatBody, headers: { 'x-mock-status': '503' } });
  t.equal(a.status, 503);
  t.equal(a.json.error.type, 'server_error');
  t.type(a.json.error.message, 'string');
  const b = await call(`${url}/v1/messages`, { body: chatBody, headers: { 'x-mock-status': '529' } });
  t.same(b.json, { type: 'error', error: { type: 'overloaded_error', message: 'mock error 529' } });
  const d = await call(`${url}/v1beta/models/g:generateContent?x-mock-status=429`, { body: { contents: [] } });
  t.equal(d.status, 429);
  t.equal(d.json.error.status, 'RESOURCE_EXHAUSTED');
  const health = await call(`${url}/health?x-mock-status=500`);
  t.equal(health.status, 500, 'health can be made to fail for provider health checks');
  const invalid = await call(`${url}/v1/chat/completions`, { body: chatBody, headers: { 'x-mock-status': 'abc' } });
  t.equal(invalid.status, 400);
});

t.test('x-mock-close destroys the connection without an answer', async (t) => {
  const { url, mock } = await startMock(t);
  const err = await call(`${url}/v1/chat/completions`, { body: chatBody, headers: { 'x-mock-close': '1' } }).then(
    () => undefined,
    (e: unknown) => e,
  );
  t.ok(err instanceof Error, 'the client sees an error');
  const cause = (err as Error & { cause?: { code?: string; message?: string } }).cause;
  t.match(`${cause?.code} ${cause?.message}`, /UND_ERR_SOCKET|ECONNRESET|other side closed|socket/i, 'a socket error');
  t.equal(mock.requests.length, 1, 'the request was still recorded');
  t.equal((await call(`${url}/health`)).status, 200, 'the server keeps serving');
});

t.test('x-mock-hang never answers: the client times out and close() still returns promptly', async (t) => {
  const { url, mock } = await startMock(t);
  const timedOut = await call(`${url}/v1/chat/completions`, { body: chatBody, headers: { 'x-mock-hang': '1' }, signal: AbortSignal.timeout(150) }).then(
    () => undefined,
    (e: unknown) => e,
  );
  t.equal((timedOut as Error | undefined)?.name, 'TimeoutError', 'client gave up after its timeout');

  // A second hanging request still open while the mock closes (also a long delay).
  const pending = [
    call(`${url}/v1/chat/completions?x-mock-hang=1`, { body: chatBody }).then(() => 'answered', () => 'failed'),
    call(`${url}/v1/chat/completions`, { body: chatBody, headers: { 'x-mock-delay-ms': '60000' } }).then(() => 'answered', () => 'failed'),
  ];
  while (mock.requests.length < 3) await new Promise((r) => setTimeout(r, 5));
  const started = performance.now();
  await mock.close();
  const took = performance.now() - started;
  t.ok(took < 1000, `close() took ${took.toFixed(0)} ms`);
  t.same(await Promise.all(pending), ['failed', 'failed'], 'open requests end without an answer');
});

t.test('close() ends a slow stream promptly', async (t) => {
  const { url, mock } = await startMock(t);
  const body = { ...chatBody, stream: true };
  const res = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-mock-chunk-delay-ms': '10000' },
    body: JSON.stringify(body),
  });
  t.equal(res.status, 200);
  const reading = res.text().then(() => 'ended', () => 'failed');
  const started = performance.now();
  await mock.close();
  t.ok(performance.now() - started < 1000, 'close() returned promptly');
  t.ok(['ended', 'failed'].includes(await reading));
});
