import t from 'tap';
import { threatHeadLogit } from '../head.js';
import { createThreatRandom } from './prng.js';
import { trainThreatHead, type ThreatExample, type ThreatTrainOptions } from './trainer.js';

// Sparse synthetic windows: buckets 0-9 mark positives, 10-19 negatives, 20-63 are noise.
function examples(n: number, seed: number): ThreatExample[] {
  const random = createThreatRandom(seed);
  return Array.from({ length: n }, (_, i) => {
    const label = (i % 2) as 0 | 1;
    const idx = new Set<number>([label === 1 ? Math.floor(random.next() * 10) : 10 + Math.floor(random.next() * 10)]);
    while (idx.size < 5) idx.add(20 + Math.floor(random.next() * 44));
    const indices = Int32Array.from(idx);
    // The class bucket first (value 1), then four noise buckets (value 0.25).
    return { vector: { indices, values: Float32Array.from(indices, (_, k) => (k === 0 ? 1 : 0.25)) }, label, weight: 1 };
  });
}

const options = (kind: 'linear' | 'mlp'): ThreatTrainOptions => ({ kind, hidden: 4, dimensions: 64, epochs: 30, batchSize: 8, learningRate: 0.05, weightDecay: 0.01, seed: 3, initScale: 0.1 });

for (const kind of ['linear', 'mlp'] as const) {
  t.test(`${kind}: learns a separable task and is reproducible`, async (t) => {
    const train = examples(60, 1);
    const test = examples(40, 2);
    const head = trainThreatHead(train, options(kind));
    const correct = test.filter((e) => (threatHeadLogit(head, e.vector) > 0 ? 1 : 0) === e.label).length;
    t.ok(correct >= 0.95 * test.length, `held-out accuracy ${correct}/${test.length}`);
    const again = trainThreatHead(train, options(kind));
    t.same([...again.w1], [...head.w1], 'same seed, same weights');
    t.equal(again.b2, head.b2);
    const other = trainThreatHead(train, { ...options(kind), seed: 4 });
    t.not(other.b2, head.b2, 'another seed, another run');
  });
}

t.test('buckets never seen in training keep no weight', async (t) => {
  const train = examples(20, 5).map((e) => ({ ...e, vector: { indices: e.vector.indices.map((i) => i % 32), values: e.vector.values } }));
  const head = trainThreatHead(train, { ...options('mlp'), epochs: 2 });
  const unseen = head.w1.subarray(32 * 4);
  t.ok(unseen.every((w) => w === 0), 'rows 32-63 are zero, not random initial noise');
});
