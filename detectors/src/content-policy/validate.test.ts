import t from 'tap';
import { checkContentPolicyPatterns } from './validate.js';

t.test('usable patterns: no issues', async (t) => {
  t.same(checkContentPolicyPatterns({ rules: [{ kind: 'keyword', pattern: 'project (x)' }, { kind: 'regex', pattern: '(?i)secret\\s+plan' }] }), []);
  t.same(checkContentPolicyPatterns({}), [], 'a language policy has no rules');
});

t.test('a regex RE2 cannot compile is an issue at rules.<i>.pattern with RE2’s reason', async (t) => {
  const issues = checkContentPolicyPatterns({
    rules: [
      { kind: 'keyword', pattern: 'fine' },
      { kind: 'regex', pattern: 'also fine' },
      { kind: 'regex', pattern: '(unclosed' },
      { kind: 'regex', pattern: '(?<=lookbehind)x' },
    ],
  });
  t.same(issues.map((i) => i.path), ['rules.2.pattern', 'rules.3.pattern']);
  t.match(issues[0]!.message, /RE2 cannot compile this regex: .*missing \)/);
  t.match(issues[1]!.message, /invalid perl operator/);
});

t.test('the check compiles with the policy’s case sensitivity, as the evaluator will', async (t) => {
  const rules = [{ kind: 'regex' as const, pattern: 'a(?i)b' }];
  t.same(checkContentPolicyPatterns({ rules, case_sensitive: true }), []);
  t.same(checkContentPolicyPatterns({ rules, case_sensitive: false }), []);
});

t.test('size limits', async (t) => {
  t.same(checkContentPolicyPatterns({ rules: [{ kind: 'keyword', pattern: 'k'.repeat(4097) }] }).map((i) => i.path), ['rules.0.pattern']);
  const big = Array.from({ length: 70 }, () => ({ kind: 'keyword' as const, pattern: 'k'.repeat(4000) }));
  const issues = checkContentPolicyPatterns({ rules: big });
  t.same(issues.map((i) => i.path), ['rules'], '280,000 characters in all is over 262,144');
  t.match(issues[0]!.message, /at most 262144 characters/);
  const many = Array.from({ length: 1001 }, (_, i) => ({ kind: 'keyword' as const, pattern: `k${i}` }));
  t.same(checkContentPolicyPatterns({ rules: many }).map((i) => i.path), ['rules']);
});

t.test('\\C is refused at create time', async (t) => {
  t.same(checkContentPolicyPatterns({ rules: [{ kind: 'regex', pattern: 'a\\Cb' }] }).map((i) => i.path), ['rules.0.pattern']);
});
