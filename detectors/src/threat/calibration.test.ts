import t from 'tap';
import { applyThreatCalibration, fitThreatCalibration, fitThreatPlatt } from './calibration.js';
import { threatSigmoid } from './head.js';
import { createThreatRandom } from './train/prng.js';

/** Rows drawn from a known model: P(y=1) = sigmoid(a·z + c·r + b). */
function sample(n: number, a: number, b: number, c: number[], seed: number) {
  const random = createThreatRandom(seed);
  const logits: number[] = [];
  const rules: number[][] = [];
  const labels: number[] = [];
  for (let i = 0; i < n; i++) {
    const z = random.normal() * 3;
    const r = c.map((): number => (random.next() < 0.2 ? 1 : 0));
    const p = threatSigmoid(a * z + b + r.reduce((s, x, k) => s + x * c[k]!, 0));
    logits.push(z);
    rules.push(r);
    labels.push(random.next() < p ? 1 : 0);
  }
  return { logits, rules, labels };
}

t.test('Platt scaling recovers the generating parameters', async (t) => {
  const { logits, labels } = sample(20000, 0.7, -1.2, [], 1);
  const fit = fitThreatPlatt(logits, labels);
  t.ok(Math.abs(fit.a - 0.7) < 0.05, `a=${fit.a}`);
  t.ok(Math.abs(fit.b + 1.2) < 0.1, `b=${fit.b}`);
  t.same(fit.ruleWeights, []);
});

t.test('rule weights are fitted, and pinned at 0 when the data would make them negative', async (t) => {
  const { logits, rules, labels } = sample(20000, 0.5, -0.5, [2, -1.5], 2);
  const fit = fitThreatCalibration(logits, rules, labels, { l2: 0.1 });
  t.ok(Math.abs(fit.ruleWeights[0]! - 2) < 0.2, `c0=${fit.ruleWeights[0]}`);
  t.equal(fit.ruleWeights[1], 0, 'a rule is never evidence of innocence');
  t.ok(Math.abs(fit.a - 0.5) < 0.05);
});

t.test('a rule with a floor below 0 may weigh against an attack, down to its floor', async (t) => {
  const { logits, rules, labels } = sample(20000, 0.5, -0.5, [2, -1.5, -3], 3);
  const fit = fitThreatCalibration(logits, rules, labels, { l2: 0.1, ruleFloors: [0, -2, -1] });
  t.ok(Math.abs(fit.ruleWeights[1]! + 1.5) < 0.3, `c1=${fit.ruleWeights[1]}`);
  t.equal(fit.ruleWeights[2], -1, 'pinned at its floor');
  t.ok(fit.ruleWeights[0]! > 1, `c0=${fit.ruleWeights[0]}`);
});

t.test('applyThreatCalibration is the sigmoid of the linear form', async (t) => {
  const c = { a: 0.5, b: -1, ruleWeights: [2, 0] };
  t.equal(applyThreatCalibration(c, 4, [1, 1]), threatSigmoid(0.5 * 4 - 1 + 2));
  t.equal(applyThreatCalibration(c, 4), threatSigmoid(1));
  t.throws(() => fitThreatCalibration([1], [], [1]));
});
