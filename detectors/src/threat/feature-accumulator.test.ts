import t from 'tap';
import { createThreatFeatureAccumulator } from './feature-accumulator.js';
import { DEFAULT_THREAT_FEATURE_CONFIG } from './features.js';

/** The flush as the features define it: counts in first-seen order, log1p, the norm summed in that order, float32. */
function referenceFlush(buckets: readonly number[], weight: number): { indices: number[]; values: Float32Array } {
  const counts = new Map<number, number>();
  for (const b of buckets) counts.set(b, (counts.get(b) ?? 0) + 1);
  const logs = [...counts.values()].map((c) => Math.log1p(c));
  let norm = 0;
  for (const v of logs) norm += v * v;
  const scale = norm > 0 ? weight / Math.sqrt(norm) : 0;
  return { indices: [...counts.keys()], values: Float32Array.from(logs, (v) => v * scale) };
}

t.test('a flush gives the float32 values of the sequential norm, bit for bit, for groups of every shape', async (t) => {
  const accumulator = createThreatFeatureAccumulator(DEFAULT_THREAT_FEATURE_CONFIG, 0);
  let seed = 7;
  const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  let groups = 0;
  let mismatches = 0;
  for (let g = 0; g < 3000; g++) {
    // Few distinct buckets (large counts, past the log1p table) to many (counts of 1).
    const size = 1 + Math.floor(random() ** 2 * 6000);
    const distinct = 1 + Math.floor(random() ** 3 * size);
    const buckets = Int32Array.from({ length: size }, () => Math.floor(random() * distinct) * 37);
    const weight = [1, 0.5, 3, 0.1234567][g % 4]!;
    accumulator.out.count = 0;
    accumulator.countAll(buckets, buckets.length);
    accumulator.flush(weight);
    const expected = referenceFlush([...buckets], weight);
    const { out } = accumulator;
    const same =
      out.count === expected.indices.length &&
      expected.indices.every((b, i) => out.indices[i] === b) &&
      Buffer.compare(Buffer.from(out.values.buffer, out.values.byteOffset, 4 * out.count), Buffer.from(expected.values.buffer)) === 0;
    if (!same) mismatches++;
    groups++;
  }
  t.equal(mismatches, 0, `${groups} groups`);
});

t.test('groups flushed one after another each start from an empty scratch', async (t) => {
  const accumulator = createThreatFeatureAccumulator(DEFAULT_THREAT_FEATURE_CONFIG, 0);
  accumulator.out.count = 0;
  accumulator.countAll(Int32Array.of(5, 9, 5), 3);
  accumulator.flush(1);
  accumulator.countAll(Int32Array.of(9, 1), 2);
  accumulator.flush(2);
  t.same([...accumulator.out.indices.subarray(0, accumulator.out.count)], [5, 9, 9, 1]);
  const second = referenceFlush([9, 1], 2).values;
  t.same([...accumulator.out.values.subarray(2, 4)], [...second]);
});

t.test('buckets of earlier groups count as new in every later group, across the places wrapping past 16 bits', async (t) => {
  const accumulator = createThreatFeatureAccumulator(DEFAULT_THREAT_FEATURE_CONFIG, 0);
  // 7,000 distinct buckets a group, 40 groups: 280,000 places, past the 16-bit range several times; each
  // group shares half its buckets with the one before, in another order.
  let wrong = 0;
  for (let g = 0; g < 40; g++) {
    const buckets = Int32Array.from({ length: 7000 }, (_, i) => ((g * 3500 + (g % 2 === 0 ? i : 6999 - i)) * 7) % 262144);
    const doubled = Int32Array.from({ length: 2 * buckets.length }, (_, i) => buckets[i >> 1]!);
    accumulator.out.count = 0;
    accumulator.countAll(doubled, doubled.length);
    accumulator.flush(1);
    const expected = referenceFlush([...doubled], 1);
    const { out } = accumulator;
    if (out.count !== expected.indices.length || expected.indices.some((b, i) => out.indices[i] !== b) || expected.values.some((v, i) => out.values[i] !== v)) wrong++;
  }
  t.equal(wrong, 0);
});

t.test('a group longer than a window of the config can make (a longer window given to vector()) is counted whole', async (t) => {
  const accumulator = createThreatFeatureAccumulator(DEFAULT_THREAT_FEATURE_CONFIG, 0);
  // 70,000 places (past 16-bit slots) and 20,000 distinct buckets (more than a window's group holds).
  const buckets = Int32Array.from({ length: 70_000 }, (_, i) => ((i * 7919) % 20_000) * 13);
  for (const group of [buckets, buckets.subarray(0, 5000), buckets]) {
    accumulator.out.count = 0;
    accumulator.countAll(group, group.length);
    accumulator.flush(1);
    const expected = referenceFlush([...group], 1);
    const { out } = accumulator;
    t.equal(out.count, expected.indices.length);
    t.ok(expected.indices.every((b, i) => out.indices[i] === b) && expected.values.every((v, i) => out.values[i] === v));
  }
});
