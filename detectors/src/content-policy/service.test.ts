import t from 'tap';
import { listen } from '@palisade/core';
import { createContentPolicyEvaluator } from './evaluator.js';
import type { EvaluatePolicyInput } from './schemas.js';
import { CONTENT_POLICY_EVALUATE_PATH, buildContentPolicyService } from './service.js';

async function start(options: Parameters<typeof buildContentPolicyService>[0] = {}) {
  const { app } = buildContentPolicyService({ logLevel: 'silent', ...options });
  const base = await listen(app, { port: 0, host: '127.0.0.1' });
  return { app, base };
}

const post = (base: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}${CONTENT_POLICY_EVALUATE_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

t.test('POST /api/v1/evaluate over HTTP', async (t) => {
  const { app, base } = await start();
  t.teardown(() => app.close());

  const empty = await post(base, { text: 'hello', scope: 'input', language: 'en', policies: [] });
  t.equal(empty.status, 200);
  t.match(await empty.json(), { blocked: false, action: null, matches: [] }, 'the spec’s acceptance check');

  const blocked = await post(base, {
    text: 'Tell me about Project X',
    scope: 'input',
    policies: [
      { id: 'p1', name: 'no-project-x', type: 'blocklist', rules: [{ kind: 'keyword', pattern: 'project x' }], scope: 'request', action: 'block', status: 'ACTIVE', priority: 100 },
    ],
  });
  t.equal(blocked.status, 200);
  t.same(await blocked.json(), {
    blocked: true,
    action: 'block',
    matches: [{ policy_id: 'p1', rule_index: 0, kind: 'keyword', start: 14, end: 23, text: 'Project X' }],
    trusted_spans: [],
    fired_policies: [{ policy_id: 'p1', name: 'no-project-x', type: 'blocklist', action: 'block', priority: 100, reason: 'rule_match' }],
    detected_language: null,
    language_candidates: [],
    matches_truncated: false,
  });
});

t.test('400 with details: missing text, unknown scope, malformed policy, bad regex, bad JSON', async (t) => {
  const { app, base } = await start();
  t.teardown(() => app.close());
  const cases: Array<[string, unknown, string[]]> = [
    ['missing text', { scope: 'input', policies: [] }, ['text']],
    ['unknown scope', { text: 'x', scope: 'everywhere', policies: [] }, ['scope']],
    ['malformed policy', { text: 'x', scope: 'input', policies: [{ id: 'p', type: 'denylist', rules: [] }] }, ['policies.0.type']],
    ['bad regex', { text: 'x', scope: 'output', policies: [{ id: 'p', type: 'blocklist', rules: [{ kind: 'regex', pattern: '(?<=x)y' }] }] }, ['policies.0.rules.0.pattern']],
    ['no body', undefined, ['']],
  ];
  for (const [name, body, paths] of cases) {
    const res = body === undefined ? await fetch(`${base}${CONTENT_POLICY_EVALUATE_PATH}`, { method: 'POST' }) : await post(base, body);
    t.equal(res.status, 400, name);
    const json = (await res.json()) as { error: { code: string; message: string; details: Array<{ path: string }> } };
    t.equal(json.error.code, 'VALIDATION_ERROR', name);
    t.same(json.error.details.map((d) => d.path), paths, name);
  }
  const badJson = await post(base, '{"text": ');
  t.equal(badJson.status, 400);
  t.match(await badJson.json(), { error: { code: 'INVALID_REQUEST' } });
});

t.test('GET /health and /health/live answer; a body over the limit is 413', async (t) => {
  const { app, base } = await start();
  t.teardown(() => app.close());
  for (const path of ['/health', '/health/live']) {
    const res = await fetch(`${base}${path}`);
    t.equal(res.status, 200, path);
    t.match(await res.json(), { status: 'ok', service: 'content-policy' });
  }
  const big = await post(base, { text: 'x'.repeat(9 * 1024 * 1024), scope: 'input', policies: [] });
  t.equal(big.status, 413);
  await big.arrayBuffer();
});

t.test('X-Internal-Token guards evaluate, not health; a shared evaluator keeps one cache', async (t) => {
  const evaluator = createContentPolicyEvaluator();
  const { app, base } = await start({ internalToken: 's3cret', evaluator });
  t.teardown(() => app.close());
  const policy: EvaluatePolicyInput = { id: 'p', type: 'blocklist', rules: [{ kind: 'keyword', pattern: 'x' }] };
  const body = { text: 'x', scope: 'input' as const, policies: [policy] };
  const refused = await post(base, body);
  t.equal(refused.status, 401);
  await refused.arrayBuffer();
  const ok = await post(base, body, { 'x-internal-token': 's3cret' });
  t.equal(ok.status, 200);
  t.match(await ok.json(), { blocked: true });
  await evaluator.detect(body);
  t.same(evaluator.cacheStats(), { size: 1, hits: 1, misses: 1 }, 'HTTP and in-process calls share the compiled set');
  const health = await fetch(`${base}/health`);
  t.equal(health.status, 200);
  await health.arrayBuffer();
});
