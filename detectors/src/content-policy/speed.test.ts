import t from 'tap';
import { createContentPolicyEvaluator } from './evaluator.js';
import { formatContentPolicySpeed, measureContentPolicySpeed, contentPolicySpeedFixture } from './speed.js';

t.test('the fixture: 1,000 rules, half keywords and half regexes, on a 4 KB text with hits', async (t) => {
  const { policies, text } = contentPolicySpeedFixture();
  const rules = policies.flatMap((p) => p.rules ?? []);
  t.equal(rules.length, 1000);
  t.equal(rules.filter((r) => r.kind === 'keyword').length, 500);
  t.equal(text.length, 4096);
  const result = await createContentPolicyEvaluator().detect({ text, scope: 'input', policies });
  t.same([...new Set(result.matches.map((m) => m.text))].sort(), ['Internal Codename 10', 'PRJ-5-12345', 'secret_key_1'], 'a keyword and two regexes hit');
});

t.test('the measurement runs and reports both lookup paths', async (t) => {
  const report = await measureContentPolicySpeed({ iterations: 50, warmup: 5 });
  t.equal(report.rules, 1000);
  t.equal(report.keywordRules, 500);
  t.equal(report.regexRules, 500);
  t.equal(report.textLength, 4096);
  t.ok(report.withRevision.p50Ms > 0 && report.withRevision.p50Ms <= report.withRevision.p99Ms);
  t.ok(report.withFingerprint.p99Ms <= report.withFingerprint.maxMs);
  t.match(formatContentPolicySpeed(report), /1000 rules \(500 keywords, 500 regexes\).*\n.*compile[\s\S]*p99/);
});
