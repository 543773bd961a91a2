// node detectors/dist/threat/eval/compare-main.js --before <another build's detectors/dist> [--folds 3]
// [--data <jsonl>] [--groups] [--grammar-seeds 1,2,3]: the recipe, grammar and features of another build (say main's) against
// this build's, on the same held-out rows in the same folds of whole source groups. The held-out rows
// are the other build's training rows; the folds are drawn from them, and each build trains on the
// other folds of its own rows (its own grammar) and scores the held-out fold with its own features.
// A source group only this build has (a new grammar family) is never held out, so it only trains.
// Printed: per language, the same for the rows of the training file only (no grammar rows), the
// false alarms on benign rows with trigger words, and per source group. Development figures, as
// eval:threat's. A redraw of the attack grammar alone (another seed, same templates) moves English
// and Russian TPR at 2 % FPR by 0.01 to 0.05, as much as most changes: with --grammar-seeds both
// builds draw their grammar with each seed in turn, the rows of all draws are pooled into the tables,
// and one line per seed shows the spread.
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { formatThreatGroupComparison, formatThreatLanguageTable, threatIsGrammarGroup, threatLanguageFigures, type ThreatReportRow } from './report.js';
import { threatRatesAt } from './metrics.js';
import { threatHasTriggerWord } from './trigger-words.js';

type ConfigModule = typeof import('../train/config.js');
type CorpusModule = typeof import('../train/corpus.js');
type RecipeModule = typeof import('../train/recipe.js');
type FeaturesModule = typeof import('../features.js');
type DatasetModule = typeof import('../train/dataset.js');

interface Build {
  name: string;
  config: ConfigModule;
  corpus: CorpusModule;
  recipe: RecipeModule;
  features: FeaturesModule;
  dataset: DatasetModule;
}

const log = (message: string) => process.stdout.write(`${message}\n`);
const LANGS = ['en', 'ru', 'de', 'fr', 'es', 'zh', 'other', 'all'];

/** The training modules of the build whose `dist` folder is `distRoot`. */
async function loadBuild(name: string, distRoot: string): Promise<Build> {
  const load = <T>(path: string): Promise<T> => import(pathToFileURL(join(distRoot, 'threat', path)).href) as Promise<T>;
  return {
    name,
    config: await load<ConfigModule>('train/config.js'),
    corpus: await load<CorpusModule>('train/corpus.js'),
    recipe: await load<RecipeModule>('train/recipe.js'),
    features: await load<FeaturesModule>('features.js'),
    dataset: await load<DatasetModule>('train/dataset.js'),
  };
}

interface Scored {
  before: ThreatReportRow[];
  after: ThreatReportRow[];
  /** Whether each held-out row holds a trigger word and is benign (same order as the reports). */
  hardNegative: boolean[];
}

function compare(before: Build, after: Build, dataPath: string, folds: number, grammarSeed: number | undefined): Scored {
  const fileRows = after.dataset.loadThreatDataset(dataPath);
  const corpusOf = (build: Build) => {
    const corpus = build.config.THREAT_CORPUS;
    return grammarSeed === undefined ? corpus : { ...corpus, synth: { ...corpus.synth, seed: grammarSeed } };
  };
  const rowsOf = (build: Build) => build.corpus.threatCorpus(fileRows, corpusOf(build)).training;
  const extractorOf = (build: Build) => build.features.createThreatFeatureExtractor(build.config.THREAT_FEATURES);
  const heldOutRows = rowsOf(before);
  const beforeRows = before.recipe.featurizeThreatRows(heldOutRows, extractorOf(before));
  // The held-out rows as this build sees them, and this build's own training rows.
  const heldOutAsAfter = after.recipe.featurizeThreatRows(heldOutRows, extractorOf(after));
  const afterRows = after.recipe.featurizeThreatRows(rowsOf(after), extractorOf(after));
  const foldOf = after.recipe.threatGroupFolds(beforeRows, folds, after.config.THREAT_EVAL_SEED);
  log(`${heldOutRows.length} held-out rows (${before.name}'s training rows) in ${foldOf.size} source groups, ${folds} folds; ${after.name} trains on ${afterRows.length} rows of its own`);
  const out: Scored = { before: [], after: [], hardNegative: [] };
  for (let f = 0; f < folds; f++) {
    const modelBefore = before.recipe.trainThreatModel(
      beforeRows.filter((r) => foldOf.get(r.group) !== f),
      2 ** before.config.THREAT_FEATURES.dimensionsLog2,
      before.config.THREAT_RECIPE,
    );
    const modelAfter = after.recipe.trainThreatModel(
      afterRows.filter((r) => foldOf.get(r.group) !== f),
      2 ** after.config.THREAT_FEATURES.dimensionsLog2,
      after.config.THREAT_RECIPE,
    );
    const weights = (m: typeof modelAfter) => m.calibration.ruleWeights.map((w) => w.toFixed(2)).join(' ');
    log(`fold ${f + 1}/${folds}: rule weights ${before.name} [${weights(modelBefore)}], ${after.name} [${weights(modelAfter)}]`);
    beforeRows.forEach((r, i) => {
      if (foldOf.get(r.group) !== f) return;
      const report = (score: number): ThreatReportRow => ({ score, label: r.row.label, lang: after.dataset.threatReportLanguage(r.row.lang), group: r.group });
      out.before.push(report(before.recipe.threatRowScore(modelBefore.head, modelBefore.calibration, r.features)));
      out.after.push(report(after.recipe.threatRowScore(modelAfter.head, modelAfter.calibration, heldOutAsAfter[i]!.features)));
      out.hardNegative.push(r.row.label === 0 && threatHasTriggerWord(r.row.text));
    });
  }
  return out;
}

/** One seed's key figures: English and Russian TPR at 2 % FPR, all held-out rows and file rows only, and the trigger-word false alarms. */
function seedLine(seed: number, run: Scored): string {
  const isFileRow = run.before.map((r) => !threatIsGrammarGroup(r.group));
  const tpr = (rows: ThreatReportRow[], lang: string, fileOnly: boolean) =>
    threatLanguageFigures(fileOnly ? rows.filter((_, i) => isFileRow[i]) : rows, lang).tprAtFpr2.toFixed(3);
  const hard = (rows: ThreatReportRow[]) => threatRatesAt(rows.filter((_, i) => run.hardNegative[i]), 0.5).fpr.toFixed(3);
  const cell = (lang: string) => `${lang} ${tpr(run.before, lang, false)} → ${tpr(run.after, lang, false)} (${tpr(run.before, lang, true)} → ${tpr(run.after, lang, true)})`;
  return `seed ${seed}: ${['en', 'ru', 'de', 'all'].map(cell).join(', ')}; trigger words ${hard(run.before)} → ${hard(run.after)}`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { before: { type: 'string' }, folds: { type: 'string' }, data: { type: 'string' }, groups: { type: 'boolean' }, 'grammar-seeds': { type: 'string' } },
  });
  if (values.before === undefined) throw new Error('--before <path to the other build\'s detectors/dist> is required');
  const folds = values.folds ? Number(values.folds) : 3;
  if (!Number.isInteger(folds) || folds < 2) throw new Error('--folds must be an integer ≥ 2');
  const seeds = values['grammar-seeds'] === undefined ? [undefined] : values['grammar-seeds'].split(',').map(Number);
  if (seeds.some((seed) => seed !== undefined && !Number.isInteger(seed))) throw new Error('--grammar-seeds must be integers, comma-separated');
  const before = await loadBuild('before', values.before);
  const after = await loadBuild('after', fileURLToPath(new URL('../../', import.meta.url)));
  const started = performance.now();
  const scored: Scored = { before: [], after: [], hardNegative: [] };
  const spread: string[] = [];
  for (const seed of seeds) {
    const run = compare(before, after, values.data ?? after.dataset.threatDatasetPath(), folds, seed);
    scored.before.push(...run.before);
    scored.after.push(...run.after);
    scored.hardNegative.push(...run.hardNegative);
    if (seed !== undefined) spread.push(seedLine(seed, run));
  }
  if (spread.length > 0) log(`\nper grammar seed, TPR at 2 % FPR before → after (file rows only in brackets), trigger-word false alarms at 0.5:\n${spread.join('\n')}`);
  const isFileRow = scored.before.map((r) => !threatIsGrammarGroup(r.group));
  for (const [name, rows] of [['before', scored.before], ['after', scored.after]] as const) {
    log(`\n${name}: held-out rows, calibrated scores pooled over the folds:`);
    log(formatThreatLanguageTable(LANGS.map((l) => threatLanguageFigures(rows, l))));
    log(`${name}: the rows of the training file only (no grammar rows):`);
    log(formatThreatLanguageTable(LANGS.map((l) => threatLanguageFigures(rows.filter((_, i) => isFileRow[i]), l))));
    const hard = rows.filter((_, i) => scored.hardNegative[i]);
    log(`${name}: ${hard.length} benign rows with trigger words flagged ${threatRatesAt(hard, 0.5).fpr.toFixed(3)} at 0.5, ${threatRatesAt(hard, 0.8).fpr.toFixed(3)} at 0.8`);
  }
  if (values.groups) {
    log('\nPer source group (held out):');
    log(formatThreatGroupComparison(['before', 'after'], scored.before, scored.after));
  }
  log(`\ndone in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

main().catch((error: unknown) => {
  process.stderr.write(`compare failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
