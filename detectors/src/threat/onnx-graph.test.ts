import t from 'tap';
import * as ort from 'onnxruntime-node';
import { applyThreatCalibration, type ThreatCalibration } from './calibration.js';
import { packThreatWindows } from './detector.js';
import type { ThreatSparseVector } from './features.js';
import { emptyThreatHead, threatHeadLogit, threatPromptLogit, type ThreatHeadKind } from './head.js';
import { buildThreatOnnxModel, THREAT_ONNX_INPUTS, THREAT_ONNX_OUTPUTS } from './onnx-graph.js';
import { createThreatRandom } from './train/prng.js';

const D = 256;

function randomHead(kind: ThreatHeadKind, seed: number) {
  const random = createThreatRandom(seed);
  const head = emptyThreatHead(kind, D, 8);
  for (let i = 0; i < head.w1.length; i++) head.w1[i] = random.normal();
  for (let j = 0; j < head.b1.length; j++) head.b1[j] = random.normal() * 0.1;
  for (let j = 0; j < head.w2.length; j++) head.w2[j] = random.normal();
  head.b2 = random.normal();
  return head;
}

function randomWindows(count: number, seed: number): ThreatSparseVector[] {
  const random = createThreatRandom(seed);
  return Array.from({ length: count }, () => {
    const n = 1 + Math.floor(random.next() * 40);
    // Duplicate indices on purpose: they add, in the graph as in JS.
    return { indices: Int32Array.from({ length: n }, () => Math.floor(random.next() * D)), values: Float32Array.from({ length: n }, () => random.normal()) };
  });
}

async function runGraph(bytes: Uint8Array, windows: ThreatSparseVector[], rules?: Float32Array) {
  const session = await ort.InferenceSession.create(bytes, { executionProviders: ['cpu'] });
  try {
    const packed = packThreatWindows(windows);
    const feeds: Record<string, ort.Tensor> = {
      [THREAT_ONNX_INPUTS.indices]: new ort.Tensor('int32', packed.indices, [windows.length, packed.width]),
      [THREAT_ONNX_INPUTS.values]: new ort.Tensor('float32', packed.values, [windows.length, packed.width]),
    };
    if (rules) feeds[THREAT_ONNX_INPUTS.rules] = new ort.Tensor('float32', rules, [rules.length]);
    const out = await session.run(feeds);
    return { windowLogits: [...(out[THREAT_ONNX_OUTPUTS.windowLogits]!.data as Float32Array)], probability: (out[THREAT_ONNX_OUTPUTS.probability]!.data as Float32Array)[0]! };
  } finally {
    await session.release();
  }
}

for (const kind of ['linear', 'mlp'] as const) {
  t.test(`${kind} head: onnxruntime gives the JS reference's scores`, async (t) => {
    const head = randomHead(kind, kind === 'linear' ? 1 : 2);
    const calibration: ThreatCalibration = { a: 0.6, b: -0.4, ruleWeights: [1.5, 0, 2.5] };
    const bytes = buildThreatOnnxModel(head, calibration, { metadata: { name: 'tiny' } });
    const windows = randomWindows(7, 3);
    const rules = Float32Array.of(1, 1, 0);
    const { windowLogits, probability } = await runGraph(bytes, windows, rules);
    windows.forEach((w, i) => t.ok(Math.abs(windowLogits[i]! - threatHeadLogit(head, w)) < 1e-4, `window ${i}`));
    const expected = applyThreatCalibration(calibration, threatPromptLogit(head, windows), rules);
    t.ok(Math.abs(probability - expected) < 1e-5, `probability ${probability} vs ${expected}`);
    // One window alone, padded or not, scores the same.
    const single = await runGraph(bytes, [windows[0]!], rules);
    t.ok(Math.abs(single.windowLogits[0]! - windowLogits[0]!) < 1e-4, 'padding adds nothing');
  });
}

t.test('plain Platt scaling has no rules input', async (t) => {
  const head = randomHead('linear', 9);
  const calibration: ThreatCalibration = { a: 1.2, b: 0.3, ruleWeights: [] };
  const bytes = buildThreatOnnxModel(head, calibration);
  const session = await ort.InferenceSession.create(bytes);
  t.same(session.inputNames, ['indices', 'values']);
  t.same(session.outputNames, ['window_logits', 'probability']);
  await session.release();
  const windows = randomWindows(2, 4);
  const { probability } = await runGraph(bytes, windows);
  t.ok(Math.abs(probability - applyThreatCalibration(calibration, threatPromptLogit(head, windows))) < 1e-5);
});
