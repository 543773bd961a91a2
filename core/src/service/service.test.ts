import t from 'tap';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { request } from 'undici';
import { PalisadeError } from '../errors/index.js';
import { createService } from './create-service.js';
import { listen } from './run.js';

function captureLogs() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: pino({ level: 'info' }, stream) };
}

t.test('health, readiness, metrics, errors and tracing over real HTTP', async (t) => {
  const logs = captureLogs();
  let redisUp = true;
  const { app } = createService({
    name: 'demo',
    logger: logs.logger,
    errorFormat: 'gateway',
    bodyLimit: 1024,
    livenessPaths: ['/health'],
    readiness: {
      database: async () => {},
      redis: async () => {
        if (!redisUp) throw new Error('connection refused');
      },
    },
  });
  app.post('/echo', async (req) => {
    req.log.info('handled');
    return req.body;
  });
  app.get('/fail', async (req) => {
    req.traceId = req.id;
    throw new PalisadeError('RATE_LIMIT_EXCEEDED', { retryAfter: 7 });
  });
  app.get('/crash', async () => {
    throw new Error('unexpected');
  });
  const base = await listen(app, { port: 0 });
  t.teardown(() => app.close());

  const live = await request(`${base}/health/live`);
  t.equal(live.statusCode, 200);
  t.same(await live.body.json(), { status: 'ok', service: 'demo' });
  t.equal((await request(`${base}/health`)).statusCode, 200, 'extra liveness path');

  const ready = await request(`${base}/health/ready`);
  t.equal(ready.statusCode, 200);
  redisUp = false;
  const notReady = await request(`${base}/health/ready`);
  t.equal(notReady.statusCode, 503);
  const body = (await notReady.body.json()) as { message: string; checks: Record<string, { status: string; error?: string }> };
  t.equal(body.message, 'redis unavailable', 'names the dependency that is down');
  t.same(body.checks.redis, { status: 'down', error: 'connection refused' });
  t.same(body.checks.database, { status: 'ok' });

  const echo = await request(`${base}/echo`, {
    method: 'POST', body: JSON.stringify({ a: 1 }),
    headers: { 'content-type': 'application/json', 'x-trace-id': 'trace-abc' },
  });
  t.same(await echo.body.json(), { a: 1 });
  t.ok(logs.lines.some((l) => l.msg === 'handled' && l.trace_id === 'trace-abc' && l.service === 'demo'), 'logs carry the trace id');

  const badJson = await request(`${base}/echo`, { method: 'POST', body: '{nope', headers: { 'content-type': 'application/json' } });
  t.equal(badJson.statusCode, 400);
  t.match(await badJson.body.json(), { error: { code: 'INVALID_REQUEST', type: 'invalid_request_error' } });

  const big = await request(`${base}/echo`, { method: 'POST', body: JSON.stringify({ x: 'y'.repeat(2000) }), headers: { 'content-type': 'application/json' } });
  t.equal(big.statusCode, 413);
  t.match(await big.body.json(), { error: { code: 'PAYLOAD_TOO_LARGE' } });

  const limited = await request(`${base}/fail`, { headers: { 'x-trace-id': 'trace-xyz' } });
  t.equal(limited.statusCode, 429);
  t.equal(limited.headers['retry-after'], '7');
  t.same(await limited.body.json(), { error: { code: 'RATE_LIMIT_EXCEEDED', message: 'Rate limit exceeded', type: 'rate_limit_error', trace_id: 'trace-xyz', retry_after: 7 } });

  const crash = await request(`${base}/crash`);
  t.equal(crash.statusCode, 500);
  const crashBody = (await crash.body.json()) as { error: { code: string; message: string } };
  t.equal(crashBody.error.code, 'INTERNAL_ERROR');
  t.notMatch(crashBody.error.message, /unexpected/, 'internal details stay in the log');
  t.ok(logs.lines.some((l) => l.level === 50), 'a 500 is logged as an error');

  const missing = await request(`${base}/nowhere`);
  t.equal(missing.statusCode, 404);
  t.match(await missing.body.json(), { error: { code: 'NOT_FOUND' } });

  const metrics = await (await request(`${base}/metrics`)).body.text();
  t.match(metrics, /http_requests_total\{method="POST",route="\/echo",status_code="200",service="demo"\} 1/);
  t.match(metrics, /http_requests_total\{method="GET",route="unmatched",status_code="404",service="demo"\} 1/);
  t.match(metrics, /http_request_duration_seconds_bucket/);
});

t.test('admin error format carries field details', async (t) => {
  const { app } = createService({ name: 'admin-like', logLevel: 'silent' });
  app.post('/things', async () => {
    throw new PalisadeError('VALIDATION_ERROR', { message: 'Invalid priority', details: [{ path: 'priority', message: 'Too big' }] });
  });
  const res = await app.inject({ method: 'POST', url: '/things', payload: {} });
  t.equal(res.statusCode, 400);
  t.same(res.json(), { error: { code: 'VALIDATION_ERROR', message: 'Invalid priority', details: [{ path: 'priority', message: 'Too big' }] } });
  await app.close();
});

t.test('internal token guards every route but health and metrics', async (t) => {
  const { app } = createService({ name: 'internal', logLevel: 'silent', internalToken: 's3cret' });
  app.get('/api/v1/x', async () => ({ ok: true }));
  t.equal((await app.inject({ url: '/api/v1/x' })).statusCode, 401);
  t.equal((await app.inject({ url: '/api/v1/x', headers: { 'x-internal-token': 'wrong!' } })).statusCode, 401);
  t.equal((await app.inject({ url: '/api/v1/x', headers: { 'x-internal-token': 's3cret' } })).statusCode, 200);
  t.equal((await app.inject({ url: '/health/live' })).statusCode, 200);
  t.equal((await app.inject({ url: '/metrics' })).statusCode, 200);
  await app.close();
});

t.test('close lets an in-flight request finish, then runs closers', async (t) => {
  const closed: string[] = [];
  const { app } = createService({ name: 'slow', logLevel: 'silent', closers: [async () => { closed.push('pool'); }] });
  app.get('/slow', async () => {
    await new Promise((r) => setTimeout(r, 200));
    return { done: true };
  });
  const base = await listen(app, { port: 0 });
  const inFlight = request(`${base}/slow`);
  await new Promise((r) => setTimeout(r, 50));
  const closing = app.close();
  const res = await inFlight;
  t.equal(res.statusCode, 200);
  t.same(await res.body.json(), { done: true });
  await closing;
  t.same(closed, ['pool']);
  await t.rejects(request(`${base}/health/live`), 'no longer accepting');
});

t.test('an empty body with a JSON content type is no body; a poisoned one is refused', async (t) => {
  const { app } = createService({ name: 'empty-body', logLevel: 'silent' });
  app.post('/act', async (req) => ({ body: req.body ?? null }));
  const empty = await app.inject({ method: 'POST', url: '/act', headers: { 'content-type': 'application/json' }, payload: '' });
  t.equal(empty.statusCode, 200);
  t.same(empty.json(), { body: null });
  const poisoned = await app.inject({ method: 'POST', url: '/act', headers: { 'content-type': 'application/json' }, payload: '{"__proto__":{"x":1}}' });
  t.equal(poisoned.statusCode, 400);
  await app.close();
});
