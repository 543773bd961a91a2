// Held-out-by-source evaluation: the source groups are split into k folds; for each fold the full
// training recipe (cross-fitted calibration included) runs on the other folds and the fold's rows are
// scored. Every row is thus scored by a model that never saw its source, and the pooled calibrated
// scores give ROC-AUC and TPR at a false-positive budget per language.
import { threatPromptLogit } from '../head.js';
import { threatGroupFolds, threatRowScore, trainThreatModel, type ThreatFeaturizedRow, type ThreatRecipeOptions } from '../train/recipe.js';
import type { ThreatTrainingRow } from '../train/dataset.js';
import type { ThreatTrainLog } from '../train/trainer.js';

export interface ThreatHeldOutScore {
  row: ThreatTrainingRow;
  group: string;
  fold: number;
  /** Calibrated score: what the fold's model would answer. */
  score: number;
  /** The fold's head logit alone (before calibration), for the ranking of the head itself. */
  logit: number;
}

export interface ThreatHeldOutOptions {
  folds: number;
  /** Seed of the fold assignment (distinct from the calibration folds' seed). */
  seed: number;
  recipe: ThreatRecipeOptions;
  dimensions: number;
  /**
   * Which rows of the training folds this recipe may learn from (default: all). Folds are drawn from
   * every row, so two recipes with different training rows are compared on the same held-out folds.
   */
  trainOn?: (row: ThreatTrainingRow) => boolean;
}

export function evaluateThreatHeldOut(rows: readonly ThreatFeaturizedRow[], options: ThreatHeldOutOptions, log?: ThreatTrainLog): ThreatHeldOutScore[] {
  const folds = threatGroupFolds(rows, options.folds, options.seed);
  const out: ThreatHeldOutScore[] = [];
  for (let f = 0; f < options.folds; f++) {
    const heldOut = rows.filter((r) => folds.get(r.group) === f);
    const training = rows.filter((r) => folds.get(r.group) !== f && (options.trainOn?.(r.row) ?? true));
    const groups = [...new Set(heldOut.map((r) => r.group))].sort();
    log?.(`fold ${f + 1}/${options.folds}: holding out ${heldOut.length} rows of ${groups.join(', ')}`);
    const model = trainThreatModel(training, options.dimensions, options.recipe);
    log?.(`  calibration of this fold: a=${model.calibration.a.toFixed(3)} b=${model.calibration.b.toFixed(3)} rules=[${model.calibration.ruleWeights.map((w) => w.toFixed(2)).join(', ')}]`);
    for (const r of heldOut) {
      out.push({ row: r.row, group: r.group, fold: f, score: threatRowScore(model.head, model.calibration, r.features), logit: threatPromptLogit(model.head, r.features.windows) });
    }
  }
  return out;
}
