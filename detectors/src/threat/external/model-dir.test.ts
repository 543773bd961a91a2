import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { ConfigError } from '@palisade/core';
import { tinyClassifierOnnx, writeTinyClassifierDir } from '../../testing/index.js';
import { createExternalClassifier } from './classifier.js';
import { attackLabelsOf, loadExternalModelDir } from './model-dir.js';

t.test('the attack label is found by name', async (t) => {
  t.same(attackLabelsOf({ 0: 'BENIGN', 1: 'INJECTION' }), { labels: ['BENIGN', 'INJECTION'], attack: [1] });
  t.same(attackLabelsOf({ 0: 'SAFE', 1: 'prompt_injection', 2: 'JAILBREAK' }), { labels: ['SAFE', 'prompt_injection', 'JAILBREAK'], attack: [1, 2] });
  t.same(attackLabelsOf({ 0: 'MALICIOUS', 1: 'benign' }), { labels: ['MALICIOUS', 'benign'], attack: [0] });
  t.same(attackLabelsOf({ 0: 'LABEL_0', 1: 'LABEL_1' }), { labels: ['LABEL_0', 'LABEL_1'], attack: [1] }, 'an unnamed export: LABEL_1 of two');
  t.match(attackLabelsOf({ 0: 'NEGATIVE', 1: 'POSITIVE' }), /no attack label/);
  t.match(attackLabelsOf({ 0: 'LABEL_0', 1: 'LABEL_1', 2: 'LABEL_2' }), /no attack label/);
  t.match(attackLabelsOf(undefined), /no id2label/);
  t.match(attackLabelsOf({ 0: 'A', 2: 'B' }), /not index/);
});

t.test('max length: tokenizer_config, else config.json (at most 512), else 512', async (t) => {
  const dir = await writeTinyClassifierDir({ maxLength: 128 });
  t.equal((await loadExternalModelDir(dir)).maxLength, 128);
  await writeFile(join(dir, 'tokenizer_config.json'), JSON.stringify({ model_max_length: 1e30 }));
  const config = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8')) as Record<string, unknown>;
  await writeFile(join(dir, 'config.json'), JSON.stringify({ ...config, max_position_embeddings: 256 }));
  t.equal((await loadExternalModelDir(dir)).maxLength, 256);
  await rm(join(dir, 'tokenizer_config.json'));
  await writeFile(join(dir, 'config.json'), JSON.stringify({ ...config, max_position_embeddings: undefined }));
  t.equal((await loadExternalModelDir(dir)).maxLength, 512, 'tokenizer_config.json is optional');
});

async function brokenBy(t: Test, damage: (dir: string) => Promise<void>, file: string, problem: RegExp): Promise<void> {
  const dir = await writeTinyClassifierDir();
  await damage(dir);
  const error = await createExternalClassifier(dir).then(
    () => undefined,
    (e: unknown) => e,
  );
  t.ok(error instanceof ConfigError, 'a ConfigError: the CLI prints its message as one line');
  const message = (error as Error).message;
  t.notMatch(message, /\n/, 'one line');
  t.ok(message.startsWith(`THREAT_MODEL_DIR ${dir}: ${file}: `), message);
  t.match(message, problem);
}

t.test('a broken directory fails with one line naming the file and the problem', async (t) => {
  await brokenBy(t, (dir) => rm(join(dir, 'config.json')), 'config.json', /missing/);
  await brokenBy(t, (dir) => writeFile(join(dir, 'config.json'), '{"id2label": {'), 'config.json', /not valid JSON/);
  await brokenBy(t, (dir) => writeFile(join(dir, 'config.json'), '{"id2label": {"0": "NEGATIVE", "1": "POSITIVE"}}'), 'config.json', /no attack label.*NEGATIVE, POSITIVE/);
  await brokenBy(t, (dir) => rm(join(dir, 'tokenizer.json')), 'tokenizer.json', /missing/);
  await brokenBy(t, (dir) => writeFile(join(dir, 'tokenizer.json'), '[1, 2]'), 'tokenizer.json', /not a JSON object/);
  await brokenBy(t, (dir) => writeFile(join(dir, 'tokenizer.json'), '{"version": "1.0"}'), 'tokenizer.json', /no "model"/);
  await brokenBy(t, (dir) => writeFile(join(dir, 'tokenizer.json'), '{"model": {"type": "NoSuchModel"}}'), 'tokenizer.json', /cannot be built/);
  await brokenBy(t, (dir) => writeFile(join(dir, 'tokenizer_config.json'), 'not json'), 'tokenizer_config.json', /not valid JSON/);
  await brokenBy(t, (dir) => rm(join(dir, 'model.onnx')), 'model.onnx', /missing \(looked for model.onnx and onnx\/model.onnx\)/);
  await brokenBy(t, (dir) => writeFile(join(dir, 'model.onnx'), 'these are not protobuf bytes'), 'model.onnx', /onnxruntime cannot load it/);
  await brokenBy(
    t,
    async (dir) => {
      await rm(join(dir, 'model.onnx'));
      await mkdir(join(dir, 'onnx'));
      // A model whose only input is named differently from a transformers export.
      const bytes = Buffer.from(tinyClassifierOnnx(20, [16])).toString('latin1').replaceAll('input_ids', 'input_xxx');
      await writeFile(join(dir, 'onnx', 'model.onnx'), Buffer.from(bytes, 'latin1'));
    },
    join('onnx', 'model.onnx'),
    /no input input_ids/,
  );
});
