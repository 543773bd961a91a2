// npm run eval:threat — development figures of the threat model on held-out SOURCES of the training file
// (whole source groups held out, never random rows): the shipped recipe is retrained on k-1 folds of
// source groups and scores the k-th. Also: the committed model (through the real detector and its ONNX
// file) on the sources excluded from training for their licence, and the committed model's own
// calibration figures. The dataset README asks that figures on this file not be reported as the
// detector's quality: a third party holds the real evaluation set.
// Options: --data <jsonl> --folds <k> --model <path to .onnx> --groups (per-group tables).
import { parseArgs } from 'node:util';
import { createThreatDetector } from '../detector.js';
import { createThreatFeatureExtractor } from '../features.js';
import { THREAT_EVAL_FOLDS, THREAT_EVAL_SEED, THREAT_FEATURES, THREAT_RECIPE } from '../train/config.js';
import { loadThreatDataset, threatDatasetPath, threatShippableRows, threatSourceGroup, threatSourceLicence } from '../train/dataset.js';
import { featurizeThreatRows } from '../train/recipe.js';
import { evaluateThreatHeldOut } from './held-out.js';
import { formatThreatGroupTable, formatThreatLanguageTable, threatLanguageFigures, type ThreatReportRow } from './report.js';

const log = (message: string) => process.stdout.write(`${message}\n`);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { data: { type: 'string' }, folds: { type: 'string' }, model: { type: 'string' }, groups: { type: 'boolean' } },
  });
  const folds = values.folds ? Number(values.folds) : THREAT_EVAL_FOLDS;
  if (!Number.isInteger(folds) || folds < 2) throw new Error('--folds must be an integer ≥ 2');
  const started = performance.now();
  const all = loadThreatDataset(values.data ?? threatDatasetPath());
  const shippable = threatShippableRows(all);
  const excluded = all.filter((r) => threatSourceLicence(r.source).use !== 'ship');
  const rows = featurizeThreatRows(shippable, createThreatFeatureExtractor(THREAT_FEATURES));
  const groups = new Set(rows.map((r) => r.group));

  log('DEVELOPMENT FIGURES (held-out sources of the training file) — not the detector\'s quality, which a');
  log('third party measures on a set this team does not have.\n');
  log(`${rows.length} rows of permissive sources in ${groups.size} source groups, ${folds} folds of whole groups; each fold scored by the shipped recipe trained on the others.`);
  const scored = evaluateThreatHeldOut(rows, { folds, seed: THREAT_EVAL_SEED, recipe: THREAT_RECIPE, dimensions: 2 ** THREAT_FEATURES.dimensionsLog2 }, log);
  const pooled: ThreatReportRow[] = scored.map((s) => ({ score: s.score, label: s.row.label, lang: s.row.lang, group: s.group }));
  log('\nHeld-out sources, calibrated scores pooled over the folds (what each fold\'s model answers):');
  log(formatThreatLanguageTable(['en', 'ru', 'all'].map((l) => threatLanguageFigures(pooled, l))));
  // Each fold has its own calibration, fitted without the fold's sources; pooling compares them with
  // each other. The head's logits, on one scale across folds, show the ranking without that effect.
  const logits: ThreatReportRow[] = scored.map((s) => ({ score: 1 / (1 + Math.exp(-s.logit)), label: s.row.label, lang: s.row.lang, group: s.group }));
  log('\nHeld-out sources, head logits pooled over the folds (ranking of the head alone; rate columns are not calibrated):');
  log(formatThreatLanguageTable(['en', 'ru', 'all'].map((l) => threatLanguageFigures(logits, l))));
  if (values.groups) log(`\n${formatThreatGroupTable(pooled)}`);

  const detector = await createThreatDetector(values.model ? { modelPath: values.model } : {});
  try {
    const committed: ThreatReportRow[] = [];
    for (const row of excluded) {
      const { score } = await detector.score(row.text);
      committed.push({ score, label: row.label, lang: row.lang, group: threatSourceGroup(row.source) });
    }
    log(`\nCommitted model ${detector.modelVersion} on the sources excluded from training for their licence (English only; never trained on):`);
    log(formatThreatLanguageTable([threatLanguageFigures(committed, 'en')]));
    log(formatThreatGroupTable(committed));

    const oof = detector.metadata.figures['calibrationOutOfFold'] as Record<string, ReturnType<typeof threatLanguageFigures>> | undefined;
    if (oof) {
      log(`\nCommitted model's dev split (its cross-fitted calibration folds, recorded at training):`);
      log(formatThreatLanguageTable(Object.values(oof)));
    }
  } finally {
    await detector.close();
  }
  log(`\ndone in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

main().catch((error: unknown) => {
  process.stderr.write(`eval:threat failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
