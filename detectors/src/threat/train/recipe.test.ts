import t from 'tap';
import { createThreatFeatureExtractor, DEFAULT_THREAT_FEATURE_CONFIG } from '../features.js';
import { featurizeThreatRows, threatExamples, threatGroupFolds, threatRowScore, trainThreatModel } from './recipe.js';
import { THREAT_SMOKE_RECIPE as recipe, THREAT_SMOKE_ROWS as rows } from '../../testing/threat-smoke-fixture.js';

t.test('folds never split a source group and are reproducible', async (t) => {
  const featurized = featurizeThreatRows(rows, createThreatFeatureExtractor({ ...DEFAULT_THREAT_FEATURE_CONFIG, dimensionsLog2: 12 }));
  const folds = threatGroupFolds(featurized, 3, 5);
  t.same([...folds.entries()], [...threatGroupFolds(featurized, 3, 5).entries()]);
  t.equal(folds.size, 8);
  t.same(new Set(folds.values()), new Set([0, 1, 2]));
});

t.test('class weights balance each language', async (t) => {
  const featurized = featurizeThreatRows(rows, createThreatFeatureExtractor({ ...DEFAULT_THREAT_FEATURE_CONFIG, dimensionsLog2: 12 }));
  const examples = threatExamples(featurized, 'class');
  for (const lang of ['en', 'ru']) {
    const weight = (label: number) => examples.filter((e, i) => featurized[i]!.row.lang === lang && e.label === label).reduce((s, e) => s + e.weight, 0);
    t.ok(Math.abs(weight(1) - weight(0)) < 1e-9, lang);
  }
});

t.test('the recipe trains, calibrates out of fold, and separates the smoke set', async (t) => {
  const featurized = featurizeThreatRows(rows, createThreatFeatureExtractor({ ...DEFAULT_THREAT_FEATURE_CONFIG, dimensionsLog2: 12 }));
  const model = trainThreatModel(featurized, 2 ** 12, recipe);
  t.equal(model.outOfFold.length, rows.length);
  t.ok(model.calibration.a > 0, 'a higher head logit means a higher probability');
  t.ok(model.calibration.ruleWeights.every((w) => w >= 0));
  const scores = featurized.map((r) => threatRowScore(model.head, model.calibration, r.features));
  const worstAttack = Math.min(...scores.filter((_, i) => rows[i]!.label === 1));
  const worstBenign = Math.max(...scores.filter((_, i) => rows[i]!.label === 0));
  t.ok(worstAttack > worstBenign, `attacks ${worstAttack.toFixed(3)} above benign ${worstBenign.toFixed(3)}`);
});
