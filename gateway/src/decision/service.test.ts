import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { PalisadeError, listen } from '@palisade/core';
import { createDecisionClient, createInProcessDecisionPoint } from './client.js';
import { decide, decideFailSafe } from './decide.js';
import { DECISION_PATH, DECISION_POINT_PORT, buildDecisionService } from './service.js';
import { entity, makeProfile, pii, policies, request, threat } from '../testing/decision.js';
import type { DecisionPoint } from './types.js';

const profile = makeProfile();
const input = request(profile, { threat: threat(0.3), pii: pii(entity('EMAIL', 0, 9)), content_policy: policies({ id: 'f', action: 'flag' }) });

async function startService(t: Test, options: { internalToken?: string } = {}) {
  const { app } = buildDecisionService({ logLevel: 'silent', ...options });
  const base = await listen(app, { port: 0 });
  t.teardown(() => app.close());
  return base;
}

function client(t: Test, url: string, extra: { timeoutMs?: number; internalToken?: string } = {}): DecisionPoint {
  const point = createDecisionClient({ url, timeoutMs: extra.timeoutMs ?? 2000, internalToken: extra.internalToken });
  t.teardown(() => point.close());
  return point;
}

/** A plain node:http server answering with `handler`; the headers of each call are recorded. */
async function startRaw(t: Test, handler: Parameters<typeof createServer>[1]) {
  const seen: IncomingHttpHeaders[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req.headers);
    handler!(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

async function rejection(t: Test, promise: Promise<unknown>): Promise<PalisadeError> {
  const error = await promise.then(
    () => t.fail('expected a rejection'),
    (e: unknown) => e,
  );
  t.type(error, PalisadeError);
  t.equal((error as PalisadeError).code, 'SERVICE_UNAVAILABLE');
  return error as PalisadeError;
}

t.test('the port is the spec\'s', async (t) => {
  t.equal(DECISION_POINT_PORT, 8086);
});

t.test('POST /api/v1/decide over HTTP gives what decide() gives in-process', async (t) => {
  const base = await startService(t);
  const overHttp = await client(t, base).decide(input, { traceId: 'trace-1' });
  const inProcess = await createInProcessDecisionPoint().decide(input);
  t.same(overHttp, decide(input));
  t.same(inProcess, decide(input));
  t.equal(overHttp.decision, 'SANITIZE');
  t.same(overHttp.policy_ids, ['f']);
  // Keep-alive: the pool serves many calls; answers stay right under concurrency.
  const point = client(t, base);
  const results = await Promise.all(Array.from({ length: 20 }, (_, i) => point.decide(request(profile, { threat: threat(i % 2 ? 0.9 : 0.1) }))));
  t.same(results.map((r) => r.decision), Array.from({ length: 20 }, (_, i) => (i % 2 ? 'BLOCK' : 'ALLOW')));
});

t.test('bad input: 400 VALIDATION_ERROR with field details', async (t) => {
  const base = await startService(t);
  const post = (body: string) => fetch(`${base}${DECISION_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const res = await post(JSON.stringify({ ...input, direction: 'sideways', threat: { status: 'ok', latency_ms: 1, result: { threat_score: 2, threat_decision: 'unsafe' } } }));
  t.equal(res.status, 400);
  const body = (await res.json()) as { error: { code: string; details: Array<{ path: string }> } };
  t.equal(body.error.code, 'VALIDATION_ERROR');
  t.same(body.error.details.map((d) => d.path).sort(), ['direction', 'threat.result.threat_score']);
  const noProfile = await post(JSON.stringify({ direction: 'request' }));
  t.equal(noProfile.status, 400);
  await noProfile.arrayBuffer();
  const empty = await post('');
  t.equal(empty.status, 400, 'no body');
  await empty.arrayBuffer();
});

t.test('internal token: required by the service, sent by the client', async (t) => {
  const base = await startService(t, { internalToken: 's3cret' });
  t.equal((await client(t, base, { internalToken: 's3cret' }).decide(input)).decision, 'SANITIZE');
  const error = await rejection(t, client(t, base).decide(input));
  t.match(error.message, /X-Internal-Token/);
});

t.test('the client sends X-Trace-ID and rejects a non-200 or an invalid answer', async (t) => {
  const statuses = [500, 200];
  const { url, seen } = await startRaw(t, (_req, res) => {
    const status = statuses.shift() ?? 200;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(status === 200 ? JSON.stringify({ decision: 'MAYBE' }) : '{"error":{"code":"INTERNAL_ERROR"}}');
  });
  const point = client(t, url);
  const fiveHundred = await rejection(t, point.decide(input, { traceId: 'trace-42' }));
  t.match(fiveHundred.message, /answered 500/);
  t.equal(seen[0]?.['x-trace-id'], 'trace-42');
  t.notOk(seen[0]?.['x-internal-token'], 'no token configured, none sent');
  const invalid = await rejection(t, point.decide(input));
  t.match(invalid.message, /invalid body/);
});

t.test('the client gives up after timeoutMs; the caller falls back to the fail-safe decision', async (t) => {
  const { url } = await startRaw(t, () => {}); // accepts, never answers
  const point = client(t, url, { timeoutMs: 200 });
  const started = Date.now();
  const error = await rejection(t, point.decide(input));
  const elapsed = Date.now() - started;
  t.match(error.message, /no answer within 200 ms/);
  t.ok(elapsed >= 180 && elapsed < 1500, `elapsed ${elapsed} ms`);
  const fallback = await point.decide(input).catch((e: Error) => decideFailSafe(profile, e.message));
  t.equal(fallback.decision, 'ALLOW', 'fail-open by default');
  t.equal(fallback.events[0]?.event_type, 'FAIL_SAFE_TRIGGERED');
});

t.test('a decision point that is down: rejected at once', async (t) => {
  const { app } = buildDecisionService({ logLevel: 'silent' });
  const base = await listen(app, { port: 0 });
  await app.close();
  const started = Date.now();
  const error = await rejection(t, client(t, base, { timeoutMs: 5000 }).decide(input));
  t.match(error.message, /ECONNREFUSED|refused/i);
  t.ok(Date.now() - started < 2000, 'no wait for the timeout');
});

t.test('a caller abort stops the call', async (t) => {
  const { url } = await startRaw(t, () => {});
  const controller = new AbortController();
  const pending = client(t, url, { timeoutMs: 5000 }).decide(input, { signal: controller.signal });
  setTimeout(() => controller.abort(), 50);
  const error = await rejection(t, pending);
  t.match(error.message, /the caller stopped waiting/);
  const inProcess = createInProcessDecisionPoint().decide(input, { signal: AbortSignal.abort() });
  await t.rejects(inProcess, 'the in-process point refuses an aborted call too');
});
