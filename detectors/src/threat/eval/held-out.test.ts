import t from 'tap';
import { createThreatFeatureExtractor, DEFAULT_THREAT_FEATURE_CONFIG } from '../features.js';
import { featurizeThreatRows } from '../train/recipe.js';
import { THREAT_SMOKE_RECIPE, THREAT_SMOKE_ROWS } from '../../testing/threat-smoke-fixture.js';
import { evaluateThreatHeldOut } from './held-out.js';

t.test('every row is scored once, by a model that never saw its source group', async (t) => {
  const rows = featurizeThreatRows(THREAT_SMOKE_ROWS, createThreatFeatureExtractor({ ...DEFAULT_THREAT_FEATURE_CONFIG, dimensionsLog2: 12 }));
  const log: string[] = [];
  const scored = evaluateThreatHeldOut(rows, { folds: 2, seed: 1, recipe: { ...THREAT_SMOKE_RECIPE, calibrationFolds: 2 }, dimensions: 2 ** 12 }, (m) => log.push(m));
  t.equal(scored.length, rows.length);
  t.same(new Set(scored.map((s) => s.row)).size, rows.length, 'no row twice');
  const foldOf = new Map<string, Set<number>>();
  for (const s of scored) foldOf.set(s.group, (foldOf.get(s.group) ?? new Set()).add(s.fold));
  t.ok([...foldOf.values()].every((f) => f.size === 1), 'a group is held out in one fold only');
  t.ok(scored.every((s) => s.score >= 0 && s.score <= 1 && Number.isFinite(s.logit)));
  t.match(log[0], /^fold 1\/2: holding out/);
});
