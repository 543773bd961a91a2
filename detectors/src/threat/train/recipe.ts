// The training recipe shared by `train:threat` and `eval:threat`: featurise the rows, weight them, train
// the head, and calibrate it on held-out logits. Calibration is cross-fitted: the rows are split into
// folds of whole source groups, a head trained without each fold scores that fold, the calibration
// (Platt with rule inputs) is fitted on those out-of-fold logits, and the final head is trained on
// every row. So the calibration never sees a logit of a head that trained on the same source, and the
// final head still learns from every source.
import type { ThreatFeatureExtractor, ThreatPromptFeatures } from '../features.js';
import { threatPromptLogit, type ThreatHeadWeights } from '../head.js';
import { applyThreatCalibration, fitThreatCalibration, type ThreatCalibration } from '../calibration.js';
import { THREAT_SIGNAL_FAMILIES, type ThreatSignalFamily } from '../signals.js';
import { threatSourceGroup, type ThreatTrainingRow } from './dataset.js';
import { createThreatRandom } from './prng.js';
import { threatHasTriggerWord } from '../eval/trigger-words.js';
import { trainThreatHead, type ThreatExample, type ThreatTrainLog, type ThreatTrainOptions } from './trainer.js';

export interface ThreatFeaturizedRow {
  row: ThreatTrainingRow;
  group: string;
  features: ThreatPromptFeatures;
}

export function featurizeThreatRows(rows: readonly ThreatTrainingRow[], extractor: ThreatFeatureExtractor): ThreatFeaturizedRow[] {
  return rows.map((row) => ({ row, group: threatSourceGroup(row.source), features: extractor.extract(row.text) }));
}

export type ThreatBalance = 'class' | 'class+source';

/** Loss multipliers by source-group prefix (e.g. `bipia:` 0.5): how much a kind of source should teach. */
export type ThreatGroupWeights = Readonly<Record<string, number>>;

export function threatGroupWeight(weights: ThreatGroupWeights, group: string): number {
  let best = '';
  for (const prefix of Object.keys(weights)) if (group.startsWith(prefix) && prefix.length > best.length) best = prefix;
  return best === '' ? 1 : weights[best]!;
}

/** How rows weigh beyond the class balance (absent fields: as before these options existed). */
export interface ThreatRowWeighting {
  /** Loss multipliers by source group (absent: 1). */
  groupWeights?: ThreatGroupWeights;
  /** Loss multiplier of benign rows that hold a trigger word (`eval/trigger-words.ts`). */
  hardNegativeWeight?: number;
  /** With `class+source`, a source group weighs as its size to this power (0.5: square root). */
  sourcePower?: number;
}

/**
 * Loss weights: each language's two classes weigh the same in total; with `class+source`, within a
 * class every source group weighs as the square root of its size (big sources dominate less, a
 * held-out source looks more like one of many). A row's weight is shared by its windows.
 */
export function threatExamples(rows: readonly ThreatFeaturizedRow[], balance: ThreatBalance, weighting: ThreatRowWeighting = {}): ThreatExample[] {
  const { groupWeights = {}, hardNegativeWeight = 1, sourcePower = 0.5 } = weighting;
  // English and Russian are balanced on their own; the other languages share one balance, since a
  // language with a few dozen positives would otherwise give each of them hundreds of times the weight.
  const langOf = (r: ThreatFeaturizedRow) => (r.row.lang === 'en' || r.row.lang === 'ru' ? r.row.lang : 'xx');
  const cell = (r: ThreatFeaturizedRow) => `${langOf(r)}|${r.row.label}`;
  const cellCount = new Map<string, number>();
  const groupCount = new Map<string, number>();
  const langCount = new Map<string, number>();
  for (const r of rows) {
    cellCount.set(cell(r), (cellCount.get(cell(r)) ?? 0) + 1);
    groupCount.set(`${cell(r)}|${r.group}`, (groupCount.get(`${cell(r)}|${r.group}`) ?? 0) + 1);
    langCount.set(langOf(r), (langCount.get(langOf(r)) ?? 0) + 1);
  }
  // Per cell, the source weights sum to the cell's row count, so the class balance is unchanged.
  const sourceFactor = new Map<string, number>();
  if (balance === 'class+source') {
    for (const c of cellCount.keys()) {
      const groups = [...groupCount.entries()].filter(([k]) => k.startsWith(`${c}|`));
      const total = groups.reduce((s, [, n]) => s + n ** sourcePower, 0);
      for (const [k, n] of groups) sourceFactor.set(k, ((cellCount.get(c)! / total) * n ** sourcePower) / n);
    }
  }
  const out: ThreatExample[] = [];
  for (const r of rows) {
    const classWeight = langCount.get(langOf(r))! / (2 * cellCount.get(cell(r))!);
    const hard = hardNegativeWeight !== 1 && r.row.label === 0 && threatHasTriggerWord(r.row.text) ? hardNegativeWeight : 1;
    const weight = classWeight * (sourceFactor.get(`${cell(r)}|${r.group}`) ?? 1) * threatGroupWeight(groupWeights, r.group) * hard;
    const windows = r.features.windows;
    for (const vector of windows) out.push({ vector, label: r.row.label, weight: weight / windows.length });
  }
  return out;
}

/** A row's calibrated score, as the ONNX graph computes it. */
export function threatRowScore(head: ThreatHeadWeights, calibration: ThreatCalibration, features: ThreatPromptFeatures): number {
  return applyThreatCalibration(calibration, threatPromptLogit(head, features.windows), features.rules);
}

/**
 * Splits source groups into `k` folds: groups shuffled with the seed, then each placed in the fold with
 * the fewest rows so far, so folds are of similar size. Returns group → fold.
 */
export function threatGroupFolds(rows: readonly ThreatFeaturizedRow[], k: number, seed: number): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const r of rows) sizes.set(r.group, (sizes.get(r.group) ?? 0) + 1);
  const groups = createThreatRandom(seed).shuffle([...sizes.keys()].sort());
  // Largest first (stable after the shuffle) keeps the greedy balance tight.
  groups.sort((a, b) => sizes.get(b)! - sizes.get(a)!);
  const load = new Array<number>(k).fill(0);
  const fold = new Map<string, number>();
  for (const g of groups) {
    const target = load.indexOf(Math.min(...load));
    fold.set(g, target);
    load[target]! += sizes.get(g)!;
  }
  return fold;
}

export interface ThreatRecipeOptions extends ThreatRowWeighting {
  train: Omit<ThreatTrainOptions, 'dimensions'>;
  balance: ThreatBalance;
  /** Folds of the cross-fitted calibration. */
  calibrationFolds: number;
  /** Whether the calibration takes the signal families as rule inputs (false: plain Platt). */
  calibrationRules: boolean;
  /** L2 penalty on the rule weights of the calibration. */
  calibrationL2: number;
  /** Families whose rule weight may go below 0, down to this floor (the others: 0). */
  calibrationRuleFloors?: Readonly<Partial<Record<ThreatSignalFamily, number>>>;
}

export interface ThreatTrainedModel {
  head: ThreatHeadWeights;
  calibration: ThreatCalibration;
  /** Calibrated out-of-fold scores of the training rows (the calibration's own held-out figures). */
  outOfFold: Array<{ row: ThreatTrainingRow; group: string; logit: number; score: number }>;
}

export function trainThreatModel(
  rows: readonly ThreatFeaturizedRow[],
  dimensions: number,
  options: ThreatRecipeOptions,
  log?: ThreatTrainLog,
): ThreatTrainedModel {
  const trainOptions: ThreatTrainOptions = { ...options.train, dimensions };
  const folds = threatGroupFolds(rows, options.calibrationFolds, options.train.seed);
  const logits = new Float64Array(rows.length);
  for (let f = 0; f < options.calibrationFolds; f++) {
    const inFold = rows.map((r) => folds.get(r.group) === f);
    const training = rows.filter((_, i) => !inFold[i]);
    log?.(`calibration fold ${f + 1}/${options.calibrationFolds}: ${training.length} training rows, ${rows.length - training.length} held out`);
    const head = trainThreatHead(threatExamples(training, options.balance, options), trainOptions);
    rows.forEach((r, i) => {
      if (inFold[i]) logits[i] = threatPromptLogit(head, r.features.windows);
    });
  }
  const rules = rows.map((r) => (options.calibrationRules ? r.features.rules : new Float32Array(0)));
  const ruleFloors = THREAT_SIGNAL_FAMILIES.map((family) => options.calibrationRuleFloors?.[family] ?? 0);
  const calibration = fitThreatCalibration(logits, rules, rows.map((r) => r.row.label), { l2: options.calibrationL2, ruleFloors });
  log?.(`calibration on ${rows.length} out-of-fold logits: a=${calibration.a.toFixed(4)} b=${calibration.b.toFixed(4)} rules=[${calibration.ruleWeights.map((w) => w.toFixed(2)).join(', ')}]`);
  log?.(`final head on all ${rows.length} rows`);
  const head = trainThreatHead(threatExamples(rows, options.balance, options), trainOptions, log);
  return {
    head,
    calibration,
    outOfFold: rows.map((r, i) => ({ row: r.row, group: r.group, logit: logits[i]!, score: applyThreatCalibration(calibration, logits[i]!, rules[i]!) })),
  };
}
