import t from 'tap';
import { threatBrier, threatRatesAt, threatRocAuc, threatTprAtFpr, type ThreatScored } from './metrics.js';

const rows = (pos: number[], neg: number[]): ThreatScored[] => [...pos.map((score) => ({ score, label: 1 as const })), ...neg.map((score) => ({ score, label: 0 as const }))];

t.test('ROC-AUC', async (t) => {
  t.equal(threatRocAuc(rows([0.9, 0.8], [0.1, 0.2])), 1);
  t.equal(threatRocAuc(rows([0.1, 0.2], [0.9, 0.8])), 0);
  t.equal(threatRocAuc(rows([0.5], [0.5])), 0.5, 'ties count one half');
  t.equal(threatRocAuc(rows([0.9, 0.3], [0.5, 0.1])), 0.75);
  t.ok(Number.isNaN(threatRocAuc(rows([0.9], []))));
});

t.test('TPR at a false-positive budget never exceeds the budget', async (t) => {
  const negatives = Array.from({ length: 100 }, (_, i) => i / 100);
  const positives = [0.995, 0.985, 0.975, 0.5];
  const at1 = threatTprAtFpr(rows(positives, negatives), 0.01);
  t.equal(at1.threshold, 0.98, 'one negative (0.99) may be above the threshold');
  t.equal(at1.fpr, 0.01);
  t.equal(at1.tpr, 0.5);
  const at0 = threatTprAtFpr(rows(positives, negatives), 0);
  t.equal(at0.fpr, 0);
  t.equal(at0.tpr, 0.25);
});

t.test('rates at a threshold and the Brier score', async (t) => {
  t.same(threatRatesAt(rows([0.9, 0.4], [0.6, 0.1]), 0.5), { tpr: 0.5, fpr: 0.5 });
  t.equal(threatBrier(rows([1], [0])), 0);
  t.equal(threatBrier(rows([0.5], [0.5])), 0.25);
});
