// npm run train:threat — trains the shipped threat model from ../shared/datasets/injection-train-v2.jsonl
// (licence_ok rows only) and the attack grammar's rows, checks the ONNX graph against the JS forward
// pass, prints its figures and writes detectors/models/threat/{<name>.onnx, <name>.json, NOTICE.md}.
// Options: --data <jsonl> --out <dir> --name <model name>.
import { parseArgs } from 'node:util';
import * as ort from 'onnxruntime-node';
import { createThreatFeatureExtractor } from '../features.js';
import { threatModelDir, THREAT_MODEL_NAME } from '../model-files.js';
import { THREAT_ONNX_INPUTS, THREAT_ONNX_OUTPUTS } from '../onnx-graph.js';
import { packThreatWindows } from '../detector.js';
import { formatThreatGroupTable, formatThreatLanguageTable, threatLanguageFigures, type ThreatReportRow } from '../eval/report.js';
import { THREAT_FEATURES, THREAT_RECIPE, THREAT_CORPUS, THREAT_TRAINING_SEED } from './config.js';
import { threatCorpus } from './corpus.js';
import { loadThreatDataset, threatDatasetPath, threatReportLanguage } from './dataset.js';
import { buildThreatArtifacts, threatNoticeMarkdown, writeThreatArtifacts, type ThreatArtifacts } from './export.js';
import { featurizeThreatRows, threatRowScore, trainThreatModel, type ThreatFeaturizedRow, type ThreatTrainedModel } from './recipe.js';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

const log = (message: string) => process.stdout.write(`${message}\n`);

/** The graph must score exactly like the JS reference the printed figures come from (every 25th row). */
async function checkOnnxGraph(artifacts: ThreatArtifacts, model: ThreatTrainedModel, rows: ThreatFeaturizedRow[]): Promise<void> {
  const session = await ort.InferenceSession.create(artifacts.onnx, { executionProviders: ['cpu'] });
  let worst = 0;
  for (const r of rows.filter((_, i) => i % 25 === 0)) {
    const packed = packThreatWindows(r.features.windows);
    const feeds: Record<string, ort.Tensor> = {
      [THREAT_ONNX_INPUTS.indices]: new ort.Tensor('int32', packed.indices, [r.features.windows.length, packed.width]),
      [THREAT_ONNX_INPUTS.values]: new ort.Tensor('float32', packed.values, [r.features.windows.length, packed.width]),
    };
    if (artifacts.metadata.ruleInputs.length > 0) feeds[THREAT_ONNX_INPUTS.rules] = new ort.Tensor('float32', r.features.rules, [r.features.rules.length]);
    const out = await session.run(feeds);
    const onnxScore = (out[THREAT_ONNX_OUTPUTS.probability]!.data as Float32Array)[0]!;
    worst = Math.max(worst, Math.abs(onnxScore - threatRowScore(model.head, model.calibration, r.features)));
  }
  await session.release();
  log(`\nONNX graph vs JS forward pass: largest difference ${worst.toExponential(2)} over ${Math.ceil(rows.length / 25)} rows`);
  if (worst > 1e-4) throw new Error('the ONNX graph does not reproduce the trained model');
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { data: { type: 'string' }, out: { type: 'string' }, name: { type: 'string' } } });
  const dataPath = values.data ?? threatDatasetPath();
  const outDir = values.out ?? threatModelDir();
  const name = values.name ?? THREAT_MODEL_NAME;
  const started = performance.now();

  const all = loadThreatDataset(dataPath);
  const { training: shippable, excluded } = threatCorpus(all, THREAT_CORPUS);
  log(`data: ${dataPath} — ${all.length} rows, ${excluded.length} of them left out (licence_ok false); with the grammar's rows and at most ${THREAT_CORPUS.capPerGroup} per source group and label, ${shippable.length} rows train the model`);

  const extractor = createThreatFeatureExtractor(THREAT_FEATURES);
  const rows = featurizeThreatRows(shippable, extractor);
  const heldOutByLicence = featurizeThreatRows(excluded, extractor);
  log(`features: ${rows.reduce((s, r) => s + r.features.windows.length, 0)} windows, 2^${THREAT_FEATURES.dimensionsLog2} hashed dimensions`);

  const model = trainThreatModel(rows, 2 ** THREAT_FEATURES.dimensionsLog2, THREAT_RECIPE, log);
  const report = (scored: ThreatFeaturizedRow[]): ThreatReportRow[] =>
    scored.map((r) => ({ score: threatRowScore(model.head, model.calibration, r.features), label: r.row.label, lang: threatReportLanguage(r.row.lang), group: r.group }));
  const outOfFold: ThreatReportRow[] = model.outOfFold.map((s) => ({ score: s.score, label: s.row.label, lang: threatReportLanguage(s.row.lang), group: s.group }));
  const langs = ['en', 'ru', 'de', 'fr', 'es', 'zh', 'other', 'all'];
  const training = report(rows);
  const devOnly = report(heldOutByLicence);
  const figures = (scored: ThreatReportRow[], langs: string[]) => Object.fromEntries(langs.map((l) => [l, threatLanguageFigures(scored, l)]));

  log('\nCalibration split — out-of-fold scores of the cross-fitted calibration (source-group folds; development figures):');
  log(formatThreatLanguageTable(langs.map((l) => threatLanguageFigures(outOfFold, l))));
  log('\nFinal model on its own training rows (fit, not quality):');
  log(formatThreatLanguageTable(langs.map((l) => threatLanguageFigures(training, l))));
  log('\nFinal model on the sources left out for their licence (never trained on):');
  log(formatThreatLanguageTable(['en', 'zh', 'all'].map((l) => threatLanguageFigures(devOnly, l))));
  log(formatThreatGroupTable(devOnly));

  const artifacts = buildThreatArtifacts({
    name,
    head: model.head,
    calibration: model.calibration,
    features: THREAT_FEATURES,
    recipe: THREAT_RECIPE,
    training: {
      data: {
        file: 'injection-train-v2.jsonl',
        corpus: THREAT_CORPUS,
        sha256: createHash('sha256').update(readFileSync(dataPath)).digest('hex'),
        rows: shippable.length,
        positives: shippable.filter((r) => r.label === 1).length,
        negatives: shippable.filter((r) => r.label === 0).length,
        excludedForLicence: excluded.length,
      },
      seed: THREAT_TRAINING_SEED,
      sourceGroups: [...new Set(rows.map((r) => r.group))].sort(),
    },
    figures: {
      calibrationOutOfFold: figures(outOfFold, langs),
      trainingFit: figures(training, langs),
      licenceExcludedSources: figures(devOnly, ['en', 'zh', 'all']),
    },
  });

  await checkOnnxGraph(artifacts, model, rows);

  const written = await writeThreatArtifacts(outDir, artifacts, threatNoticeMarkdown(name, shippable, excluded));
  log(`\nmodel ${artifacts.metadata.version}: ${(artifacts.onnx.byteLength / 1024 / 1024).toFixed(2)} MB; calibration a=${model.calibration.a.toFixed(4)} b=${model.calibration.b.toFixed(4)} rules ${JSON.stringify(artifacts.metadata.calibration.ruleWeights)}`);
  for (const path of written) log(`wrote ${path}`);
  log(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

main().catch((error: unknown) => {
  process.stderr.write(`train:threat failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
