// The feature fingerprint (fingerprint.ts) of the training files (v2 and v1), the attack grammar's rows
// and a few corner cases, with the model's feature configuration. Run it before and after a change to
// the features' code (`node detectors/dist/threat/eval/fingerprint-main.js` after a build): the digest
// must not move.
// Options: --data <jsonl> (repeatable; default the v2 and v1 files).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createThreatFeatureExtractor } from '../features.js';
import { loadThreatModelFiles, threatModelPath } from '../model-files.js';
import { THREAT_CORPUS } from '../train/config.js';
import { threatDatasetPath, THREAT_DATASET_V1_URL } from '../train/dataset.js';
import { generateSynthRows } from '../train/synth/grammar.js';
import { threatFeatureFingerprint, THREAT_FINGERPRINT_EXTRA_TEXTS } from './fingerprint.js';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { data: { type: 'string', multiple: true } } });
  const files = values.data ?? [threatDatasetPath(), fileURLToPath(THREAT_DATASET_V1_URL)];
  // Texts only: the fingerprint must not depend on the rows' other fields or their validation.
  const texts = files.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => (JSON.parse(line) as { text: string }).text),
  );
  const synth = generateSynthRows(THREAT_CORPUS.synth).map((row) => row.text);
  const { metadata } = await loadThreatModelFiles(threatModelPath());
  const extractor = createThreatFeatureExtractor(metadata.features);
  const started = process.cpuUsage();
  const fingerprint = threatFeatureFingerprint(extractor, [...texts, ...synth, ...THREAT_FINGERPRINT_EXTRA_TEXTS]);
  const cpu = process.cpuUsage(started);
  process.stdout.write(
    `threat features (${metadata.version}): ${fingerprint.sha256}\n${fingerprint.texts} texts (${files.length} files, ${synth.length} grammar rows), ${fingerprint.windows} windows, ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms of CPU\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`threat fingerprint failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
