import t from 'tap';
import { z } from 'zod';
import {
  EvaluateEnvelopeSchema,
  EvaluatePolicyListSchema,
  EvaluatePolicySchema,
  EvaluateRequestSchema,
  EvaluateResponseSchema,
} from './schemas.js';

const paths = (schema: z.ZodType, value: unknown) => {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => i.path.join('.'));
};

const stored = {
  id: '5f0c6b1e-2f5a-4c1e-9a57-3c1f0b7e9d10',
  name: 'no-secrets',
  description: 'keeps secrets out',
  type: 'blocklist',
  rules: [{ kind: 'keyword', pattern: 'project x' }],
  languages: [],
  scope: 'request',
  case_sensitive: false,
  priority: 100,
  action: 'block',
  status: 'ACTIVE',
  tenant_id: 'default',
  managed_by: 'api',
  created_at: '2024-01-01T00:00:00Z',
  updated_at: '2024-01-01T00:00:00Z',
};

t.test('a stored record is an evaluate item', async (t) => {
  const p = EvaluatePolicySchema.parse(stored);
  t.match(p, { id: stored.id, name: 'no-secrets', type: 'blocklist', scope: 'request', status: 'ACTIVE', priority: 100 });
});

t.test('meta fields are optional; the id is any non-empty string; a missing status means ACTIVE', async (t) => {
  const p = EvaluatePolicySchema.parse({ id: 'p1', type: 'blocklist', rules: [{ kind: 'regex', pattern: 'x' }], created_at: 'yesterday' });
  t.same(p, {
    id: 'p1',
    type: 'blocklist',
    rules: [{ kind: 'regex', pattern: 'x' }],
    languages: [],
    scope: 'request',
    case_sensitive: false,
    priority: 100,
    action: 'block',
    status: 'ACTIVE',
  }, 'core defaults apply; unknown meta fields are dropped');
  t.same(paths(EvaluatePolicySchema, { type: 'blocklist', rules: [{ kind: 'keyword', pattern: 'x' }] }), ['id']);
  t.same(paths(EvaluatePolicySchema, { id: '', type: 'blocklist', rules: [{ kind: 'keyword', pattern: 'x' }] }), ['id']);
  t.equal(EvaluatePolicySchema.parse({ ...stored, status: 'DRAFT' }).status, 'DRAFT');
});

t.test('core’s input normalisation: scope aliases and spellings', async (t) => {
  const p = EvaluatePolicySchema.parse({ ...stored, scope: 'Output', action: 'FLAG', type: 'Language', languages: ['EN'] });
  t.equal(p.scope, 'response');
  t.equal(p.action, 'flag');
  t.same(p.languages, ['en']);
});

t.test('malformed policies name the field', async (t) => {
  t.same(paths(EvaluatePolicySchema, { ...stored, type: 'denylist' }), ['type']);
  t.same(paths(EvaluatePolicySchema, { ...stored, rules: [{ kind: 'glob', pattern: 'x' }] }), ['rules.0.kind']);
  t.same(paths(EvaluatePolicySchema, { ...stored, rules: [] }), ['rules'], 'a blocklist needs a rule');
  t.same(paths(EvaluatePolicySchema, { ...stored, type: 'language', rules: [] }), ['languages'], 'a language policy needs a language');
  t.same(paths(EvaluatePolicySchema, { ...stored, type: 'language', languages: ['english'] }), ['languages.0']);
  t.same(paths(EvaluatePolicySchema, { ...stored, priority: 1001 }), ['priority']);
  t.same(paths(EvaluatePolicySchema, { ...stored, action: 'allow' }), ['action']);
  t.same(paths(EvaluatePolicySchema, { ...stored, status: 'ARCHIVED' }), ['status']);
  t.same(paths(EvaluatePolicySchema, 'a string'), ['']);
});

t.test('list limits: policies and rules in all', async (t) => {
  const policy = (n: number) => ({ id: 'p', type: 'blocklist', rules: Array.from({ length: n }, (_, i) => ({ kind: 'keyword', pattern: `k${i}` })) });
  t.same(paths(EvaluatePolicyListSchema, Array.from({ length: 10 }, () => policy(1000))), []);
  t.same(paths(EvaluatePolicyListSchema, [...Array.from({ length: 10 }, () => policy(1000)), policy(1)]), [''], 'over 10,000 rules');
  t.same(paths(EvaluatePolicyListSchema, Array.from({ length: 1001 }, () => policy(1))), ['']);
});

t.test('envelope: text, scope (input/output, request/response), language hint', async (t) => {
  const ok = (v: Record<string, unknown>) => EvaluateEnvelopeSchema.parse({ text: 'x', scope: 'input', policies: [], ...v });
  t.equal(ok({ scope: 'input' }).scope, 'request');
  t.equal(ok({ scope: 'OUTPUT' }).scope, 'response');
  t.equal(ok({ scope: 'response' }).scope, 'response');
  t.same(paths(EvaluateEnvelopeSchema, { text: 'x', scope: 'both', policies: [] }), ['scope']);
  t.same(paths(EvaluateEnvelopeSchema, { text: 'x', scope: 'sideways', policies: [] }), ['scope']);
  t.match(EvaluateEnvelopeSchema.safeParse({ text: 'x', scope: 'sideways', policies: [] }).error?.issues[0]?.message, /"input" or "output"/);
  t.same(paths(EvaluateEnvelopeSchema, { scope: 'input', policies: [] }), ['text']);
  t.same(paths(EvaluateEnvelopeSchema, { text: 'x', scope: 'input' }), ['policies']);
  t.same(paths(EvaluateEnvelopeSchema, { text: 'x'.repeat(1_048_577), scope: 'input', policies: [] }), ['text']);
  t.equal(ok({ language: 'ru-RU' }).language, 'ru');
  t.equal(ok({ language: 'auto' }).language, undefined);
  t.equal(ok({ language: null }).language, undefined);
  t.equal(ok({}).language, undefined);
  t.equal(ok({ text: '' }).text, '', 'an empty text is a text');
});

t.test('the full request schema validates the policies too', async (t) => {
  t.same(paths(EvaluateRequestSchema, { text: 'x', scope: 'input', policies: [{ ...stored, rules: [{ kind: 'keyword' }] }] }), ['policies.0.rules.0.pattern']);
});

t.test('response schema', async (t) => {
  const response = {
    blocked: true,
    action: 'block',
    matches: [{ policy_id: 'p', rule_index: 0, kind: 'keyword', start: 0, end: 1, text: 'x' }],
    trusted_spans: [{ policy_id: 't', start: 2, end: 3, text: 'y' }],
    fired_policies: [{ policy_id: 'p', name: null, type: 'blocklist', action: 'block', priority: 100, reason: 'rule_match' }],
    detected_language: null,
    language_candidates: [],
    matches_truncated: false,
  };
  t.same(EvaluateResponseSchema.parse(response), response);
  t.notOk(EvaluateResponseSchema.safeParse({ ...response, action: 'allow' }).success);
});
