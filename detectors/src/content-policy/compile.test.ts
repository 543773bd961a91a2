import t from 'tap';
import { PalisadeError } from '@palisade/core';
import { compilePolicySet } from './compile.js';
import { EvaluatePolicyListSchema } from './schemas.js';

const list = (items: Record<string, unknown>[]) => EvaluatePolicyListSchema.parse(items);
const rule = { kind: 'keyword', pattern: 'x' };

t.test('per scope: ACTIVE policies of the scope or both, priority descending, ties in request order', async (t) => {
  const set = compilePolicySet(list([
    { id: 'low', priority: 10, scope: 'both', type: 'blocklist', rules: [rule] },
    { id: 'tie-a', priority: 500, scope: 'request', type: 'blocklist', rules: [rule] },
    { id: 'out', priority: 900, scope: 'response', type: 'blocklist', rules: [rule] },
    { id: 'tie-b', priority: 500, scope: 'input', type: 'blocklist', rules: [rule] },
    { id: 'draft', priority: 1000, scope: 'both', type: 'blocklist', rules: [rule], status: 'DRAFT' },
    { id: 'lang', priority: 0, scope: 'output', type: 'language', languages: ['en'] },
  ]));
  t.same(set.request.policies.map((p) => p.id), ['tie-a', 'tie-b', 'low']);
  t.same(set.response.policies.map((p) => p.id), ['out', 'low', 'lang']);
  t.notOk(set.request.hasLanguagePolicies);
  t.ok(set.response.hasLanguagePolicies);
  t.equal(set.policyCount, 6, 'the DRAFT one is counted, not applied');
  t.equal(set.ruleCount, 5);
});

t.test('the pattern set and the rule list line up', async (t) => {
  const set = compilePolicySet(list([
    { id: 'a', type: 'blocklist', rules: [{ kind: 'keyword', pattern: 'alpha' }, { kind: 'regex', pattern: 'b\\d+' }] },
    { id: 'b', type: 'allowlist', scope: 'both', rules: [{ kind: 'keyword', pattern: 'Gamma' }], case_sensitive: true },
  ]));
  const program = set.request;
  const hits = program.patterns.match('ALPHA b12 gamma').map((i) => [program.rules[i]!.policy.id, program.rules[i]!.ruleIndex]);
  t.same(hits, [['a', 0], ['a', 1]], 'the case-sensitive keyword does not match another case');
  t.same(program.rules.map((r) => r.source), ['(?i)alpha', '(?i)b\\d+', 'Gamma']);
});

t.test('a rule that does not compile is a VALIDATION_ERROR naming every bad rule', async (t) => {
  const items = list([
    { id: 'ok', type: 'blocklist', rules: [rule] },
    { id: 'bad', type: 'blocklist', rules: [rule, { kind: 'regex', pattern: '(' }, { kind: 'regex', pattern: 'x{2,1}' }] },
    { id: 'draft-bad', type: 'blocklist', status: 'DRAFT', rules: [{ kind: 'regex', pattern: '[' }] },
  ]);
  const error = t.throws(() => compilePolicySet(items)) as PalisadeError;
  t.ok(error instanceof PalisadeError);
  t.equal(error.code, 'VALIDATION_ERROR');
  t.equal(error.status, 400);
  t.same((error.details as Array<{ path: string }>).map((d) => d.path), ['policies.1.rules.1.pattern', 'policies.1.rules.2.pattern', 'policies.2.rules.0.pattern']);
  t.match(error.message, /^Invalid policies\.1\.rules\.1\.pattern: RE2 cannot compile/);
});

t.test('the size limit of one policy’s patterns applies at compile too', async (t) => {
  const rules = Array.from({ length: 70 }, () => ({ kind: 'keyword', pattern: 'k'.repeat(4000) }));
  const error = t.throws(() => compilePolicySet(list([{ id: 'big', type: 'blocklist', rules }]))) as PalisadeError;
  t.same((error.details as Array<{ path: string }>).map((d) => d.path), ['policies.0.rules']);
});

t.test('an empty list compiles to nothing', async (t) => {
  const set = compilePolicySet([]);
  t.equal(set.request.policies.length, 0);
  t.same(set.request.patterns.match('anything'), []);
});
