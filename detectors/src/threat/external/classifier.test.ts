import { mkdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { writeTinyClassifierDir } from '../../testing/index.js';
import { attackProbabilities, createExternalClassifier } from './classifier.js';

t.test('softmax of the logits gives the attack labels their summed probability', async (t) => {
  const [a, b] = attackProbabilities(Float32Array.of(0, 2, 1, 1), 2, [1]);
  t.ok(Math.abs(a! - 1 / (1 + Math.exp(-2))) < 1e-9);
  t.equal(b, 0.5);
  t.same(attackProbabilities(Float32Array.of(0, 0, 0), 3, [1, 2]), [2 / 3]);
});

for (const kind of ['wordpiece', 'unigram'] as const) {
  t.test(`${kind}: a prompt with an attack token scores high, one without scores low`, async (t) => {
    const classifier = await createExternalClassifier(await writeTinyClassifierDir({ tokenizer: kind }));
    t.teardown(() => classifier.close());
    t.equal(classifier.name, 'tiny-injection-classifier');
    t.same(classifier.labels, ['BENIGN', 'INJECTION']);
    t.ok((await classifier.score('I would like a Pineapple smoothie recipe')).score > 0.85);
    t.ok((await classifier.score('I would like a smoothie recipe')).score < 0.15);
  });
}

t.test('concurrent prompts share one onnxruntime run', async (t) => {
  const classifier = await createExternalClassifier(await writeTinyClassifierDir(), { maxWaitMs: 20 });
  t.teardown(() => classifier.close());
  const before = classifier.runs();
  const results = await Promise.all(['hello world', 'a zebra', 'the report', 'please summarize the pineapple'].map((p) => classifier.score(p)));
  t.same(
    results.map((r) => r.score > 0.5),
    [false, true, false, true],
    'each prompt gets its own score although they were padded into one batch',
  );
  t.equal(classifier.runs() - before, 1);
});

t.test('a long prompt whose attack token is at the end is caught in its last window', async (t) => {
  const dir = await writeTinyClassifierDir({ maxLength: 16, layout: 'onnx' });
  const classifier = await createExternalClassifier(dir);
  t.teardown(() => classifier.close());
  const filler = 'hello world please summarize the report '.repeat(50);
  const long = await classifier.score(`${filler}zebra`);
  t.ok(long.windows > 20);
  t.ok(long.score > 0.85);
  t.ok((await classifier.score(filler)).score < 0.15);
});

t.test('model.onnx is also found under onnx/', async (t) => {
  const dir = await writeTinyClassifierDir();
  await mkdir(join(dir, 'onnx'));
  await rename(join(dir, 'model.onnx'), join(dir, 'onnx', 'model.onnx'));
  const classifier = await createExternalClassifier(dir);
  t.teardown(() => classifier.close());
  t.ok((await classifier.score('zebra')).score > 0.85);
});
