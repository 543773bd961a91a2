import t from 'tap';
import { PalisadeError, type ContentPolicy } from '@palisade/core';
import { createContentPolicyEvaluator } from './evaluator.js';
import type { EvaluatePolicyInput } from './schemas.js';

const block: EvaluatePolicyInput = { id: 'p1', type: 'blocklist', rules: [{ kind: 'keyword', pattern: 'secret' }], scope: 'both' };

t.test('a Detector of kind content-policy', async (t) => {
  const evaluator = createContentPolicyEvaluator();
  t.equal(evaluator.kind, 'content-policy');
  t.same(await evaluator.detect({ text: 'hello', scope: 'input', policies: [] }), {
    blocked: false, action: null, matches: [], trusted_spans: [], fired_policies: [], detected_language: null, language_candidates: [], matches_truncated: false,
  }, 'the spec’s acceptance check: an empty policy list is not blocked');
  const r = await evaluator.detect({ text: 'a secret', scope: 'output', policies: [block] });
  t.equal(r.blocked, true);
});

t.test('a set is compiled once and found again by content or by revision', async (t) => {
  const evaluator = createContentPolicyEvaluator();
  await evaluator.detect({ text: 'x', scope: 'input', policies: [block] });
  await evaluator.detect({ text: 'y', scope: 'output', policies: [{ ...block }] });
  t.same(evaluator.cacheStats(), { size: 1, hits: 1, misses: 1 }, 'a copy with equal content is a hit');
  await evaluator.detect({ text: 'x', scope: 'input', policies: [{ ...block, rules: [{ kind: 'keyword', pattern: 'other' }] }] });
  t.same(evaluator.cacheStats(), { size: 2, hits: 1, misses: 2 }, 'changed rules compile anew');
  await evaluator.detect({ text: 'x', scope: 'input', revision: 'rev-1', policies: [block] });
  await evaluator.detect({ text: 'x', scope: 'input', revision: 'rev-1', policies: [block] });
  t.same(evaluator.cacheStats(), { size: 3, hits: 2, misses: 3 });
});

t.test('the cache is bounded', async (t) => {
  const evaluator = createContentPolicyEvaluator({ cacheSize: 2 });
  for (const pattern of ['a', 'b', 'c']) {
    await evaluator.detect({ text: 'x', scope: 'input', policies: [{ ...block, rules: [{ kind: 'keyword', pattern }] }] });
  }
  t.equal(evaluator.cacheStats().size, 2);
  await evaluator.detect({ text: 'x', scope: 'input', policies: [{ ...block, rules: [{ kind: 'keyword', pattern: 'a' }] }] });
  t.equal(evaluator.cacheStats().misses, 4, 'the least recently used set was dropped');
});

t.test('bad input: VALIDATION_ERROR (400) with details', async (t) => {
  const evaluator = createContentPolicyEvaluator();
  const reject = async (request: unknown) => {
    const error = (await evaluator.detect(request as never).then(
      () => undefined,
      (e: unknown) => e,
    )) as PalisadeError;
    t.ok(error instanceof PalisadeError, 'a PalisadeError');
    t.equal(error.status, 400);
    return (error.details as Array<{ path: string; message: string }>).map((d) => d.path);
  };
  t.same(await reject({ scope: 'input', policies: [] }), ['text']);
  t.same(await reject({ text: 'x', scope: 'sideways', policies: [] }), ['scope']);
  t.same(await reject({ text: 'x', scope: 'input', policies: [{ id: 'p', type: 'blocklist', rules: [{ kind: 'regex' }] }] }), ['policies.0.rules.0.pattern']);
  t.same(await reject({ text: 'x', scope: 'input', policies: [block, { id: 'p', type: 'blocklist', rules: [{ kind: 'regex', pattern: '(' }] }] }), ['policies.1.rules.0.pattern']);
  t.same(await reject(undefined), ['']);
  const before = evaluator.cacheStats().misses;
  await reject({ text: 'x', scope: 'input', policies: [{ id: 'p', type: 'blocklist', rules: [{ kind: 'regex', pattern: '(' }] }] });
  await reject({ text: 'x', scope: 'input', policies: [{ id: 'p', type: 'blocklist', rules: [{ kind: 'regex', pattern: '(' }] }] });
  t.equal(evaluator.cacheStats().misses, before + 1, 'a bad list is compiled once');
});

t.test('an aborted call is refused with the signal’s reason', async (t) => {
  const evaluator = createContentPolicyEvaluator();
  const controller = new AbortController();
  controller.abort(new Error('pipeline stopped waiting'));
  await t.rejects(evaluator.detect({ text: 'x', scope: 'input', policies: [block] }, { signal: controller.signal }), { message: 'pipeline stopped waiting' });
});

t.test('the language detector is injectable', async (t) => {
  const evaluator = createContentPolicyEvaluator({ detectLanguage: () => ({ language: 'fr', candidates: ['fr'], determined: true }) });
  const r = await evaluator.detect({ text: 'x', scope: 'input', policies: [{ id: 'l', type: 'language', languages: ['en'] }] });
  t.equal(r.blocked, true);
  t.equal(r.detected_language, 'fr');
});

t.test('stored records (core’s ContentPolicy) are accepted as they are', async (t) => {
  const stored: ContentPolicy = {
    id: '5f0c6b1e-2f5a-4c1e-9a57-3c1f0b7e9d10',
    name: 'flag-invoices',
    description: '',
    type: 'blocklist',
    rules: [{ kind: 'regex', pattern: '(?i)invoice\\s+#\\d+' }],
    languages: [],
    scope: 'both',
    case_sensitive: true,
    priority: 10,
    action: 'flag',
    status: 'ACTIVE',
    tenant_id: 'default',
    managed_by: 'api',
    created_at: '2024-01-01T00:00:00Z',
    updated_at: '2024-01-01T00:00:00Z',
  };
  const r = await createContentPolicyEvaluator().detect({ text: 'see INVOICE #42', scope: 'output', policies: [stored] });
  t.match(r, { blocked: false, action: 'flag', fired_policies: [{ policy_id: stored.id, name: 'flag-invoices' }] });
  t.same(r.matches.map((m) => m.text), ['INVOICE #42']);
});
