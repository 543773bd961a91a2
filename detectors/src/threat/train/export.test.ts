import t from 'tap';
import { createHash } from 'node:crypto';
import { emptyThreatHead } from '../head.js';
import { DEFAULT_THREAT_FEATURE_CONFIG } from '../features.js';
import { ThreatModelMetadataSchema } from '../model-files.js';
import { THREAT_SIGNAL_FAMILIES } from '../signals.js';
import { threatShippableRows } from './dataset.js';
import { buildThreatArtifacts, threatNoticeMarkdown } from './export.js';
import { THREAT_SMOKE_RECIPE, THREAT_SMOKE_ROWS } from '../../testing/threat-smoke-fixture.js';

t.test('artifacts: metadata names the ONNX bytes by hash and passes its schema', async (t) => {
  const calibration = { a: 0.7, b: -0.5, ruleWeights: THREAT_SIGNAL_FAMILIES.map((_, k) => k / 10) };
  const input = { name: 'threat-test', head: emptyThreatHead('linear', 64, 1), calibration, features: DEFAULT_THREAT_FEATURE_CONFIG, recipe: THREAT_SMOKE_RECIPE, training: { rows: 3 }, figures: {} };
  const { onnx, metadata } = buildThreatArtifacts(input);
  t.equal(metadata.onnx.sha256, createHash('sha256').update(onnx).digest('hex'));
  t.equal(metadata.version, `threat-test+${metadata.onnx.sha256.slice(0, 12)}`);
  t.same(metadata.ruleInputs, THREAT_SIGNAL_FAMILIES);
  t.equal(metadata.calibration.ruleWeights['extraction'], 0.2);
  t.ok(ThreatModelMetadataSchema.safeParse(JSON.parse(JSON.stringify(metadata))).success);
  t.same(buildThreatArtifacts(input).onnx, onnx, 'the same inputs give the same bytes');
});

t.test('NOTICE lists the training sources with licences and the excluded ones apart', async (t) => {
  const shipped = threatShippableRows(THREAT_SMOKE_ROWS);
  const excluded = [{ text: 'x', label: 1 as const, lang: 'en' as const, source: 'utkusen/promptmap:rules/jailbreak/latex.yaml' }];
  const notice = threatNoticeMarkdown('threat-test', shipped, excluded);
  const [training, rest] = notice.split('## Rows not used for the shipped model');
  t.match(training, /vladislavneon\/RuBQ.*CC BY-SA 4\.0/);
  t.match(training, /paul-rottger\/exaggerated-safety.*CC BY 4\.0/);
  t.notMatch(training, /promptmap/);
  t.match(rest, /utkusen\/promptmap.*GPL-3\.0/);
});
