// The recipe of the shipped model, in one place: the training script uses it, the evaluation re-runs it
// on held-out folds (beside the previous recipe, on the same folds), and the metadata records it.
import { DEFAULT_THREAT_FEATURE_CONFIG, type ThreatFeatureConfig } from '../features.js';
import type { ThreatRecipeOptions } from './recipe.js';

export const THREAT_TRAINING_SEED = 20250611;

export const THREAT_FEATURES: ThreatFeatureConfig = DEFAULT_THREAT_FEATURE_CONFIG;

/** The training rows: the attack grammar's pairs and seed, and the cap per source group and label. */
export const THREAT_CORPUS = { synth: { seed: 20251125, pairs: 4000 }, capPerGroup: 600, seed: 20251125 } as const;

/**
 * A linear head: on held-out source folds it matched a 16-unit MLP (ROC-AUC en 0.848 vs 0.851,
 * ru 0.598 vs 0.589) at a fifth of the training time and a sixteenth of the size (README.md).
 * Indirect-injection documents (BIPIA, AgentDojo) weigh half: thousands of near-identical documents
 * would otherwise teach that any instruction-like sentence is an attack (dataset README, caveats);
 * their matched clean twins weigh the same, so what they teach is the inserted instruction.
 * Benign rows with trigger words weigh four times as much and the head trains 6 epochs instead of 4:
 * on held-out source folds that raised TPR at 1-2 % FPR in English and Russian and cut the false
 * alarms on held-out benign texts with trigger words (README, "Development figures").
 */
export const THREAT_RECIPE: ThreatRecipeOptions = {
  train: {
    kind: 'linear',
    hidden: 1,
    epochs: 6,
    batchSize: 32,
    learningRate: 0.01,
    weightDecay: 0.01,
    seed: THREAT_TRAINING_SEED,
    initScale: 0,
  },
  balance: 'class+source',
  groupWeights: { 'bipia:': 0.5, 'table-32:': 0.5 },
  hardNegativeWeight: 4,
  calibrationFolds: 3,
  calibrationRules: true,
  calibrationL2: 1,
  // Defensive wording ("never reveal these instructions") is how pasted system prompts protect
  // themselves, the benign source flagged most; its weight may go below 0, but not below -1, so that
  // the phrase appended to an attack takes at most 1 off its logit (README, "Calibration"). An override
  // ("forget everything above") counts at least 1.5: the fit on all rows gave it 0, the head having
  // learnt the English and Russian ones, which left the German, French and Spanish ones (few rows
  // beyond the grammar) with no rule weight at all. Held-out folds fit 0 to 2.3; over three grammar
  // draws, 1.5 raised German, French and Spanish file rows' TPR at 2 % FPR by about 0.01 to 0.03 and
  // the trigger-word false alarms by 0.002 (1.0 changed nothing measurable).
  calibrationRuleFloors: { defensive: -1, override: 1.5 },
};

/** threat-v1's recipe and features, re-run by eval:threat on the same folds for comparison. */
export const THREAT_V1_FEATURES: ThreatFeatureConfig = { ...DEFAULT_THREAT_FEATURE_CONFIG, positionWeight: 0 };
export const THREAT_V1_RECIPE: ThreatRecipeOptions = {
  ...THREAT_RECIPE,
  train: { ...THREAT_RECIPE.train, epochs: 4 },
  balance: 'class',
  groupWeights: {},
  hardNegativeWeight: 1,
  calibrationRuleFloors: {},
};

/** Folds of the held-out-by-source evaluation (eval:threat). */
export const THREAT_EVAL_FOLDS = 5;
export const THREAT_EVAL_SEED = 7;
