// The scratch the feature extractor counts a window's n-grams in, and the window's vector it flushes
// them into. Counting costs an array write instead of a Map insert; one accumulator serves one
// extractor (extraction is synchronous, so concurrent requests never interleave in it).
import type { ThreatFeatureConfig } from './features.js';

/** log1p of the small counts almost every bucket has, computed once (the same doubles as Math.log1p). */
const LOG1P = Float64Array.from({ length: 64 }, (_, k) => Math.log1p(k));

/**
 * The window's vector: written here and copied out once (growing number[] per window allocated
 * several times the vector's size). Values are rounded to float32 on write, as the copy did before.
 * The arrays are replaced when they grow: read them after reserve().
 */
export interface ThreatFeatureOutput {
  indices: Int32Array;
  values: Float32Array;
  /** Entries of the window's vector in indices/values. */
  count: number;
}

export interface ThreatFeatureAccumulator {
  readonly out: ThreatFeatureOutput;
  /**
   * One more occurrence of each of `buckets[0 .. length)` in the group being counted, in that order (a
   * call per bucket cost more than the counting).
   */
  countAll(buckets: Int32Array, length: number): void;
  /**
   * The group counted since the last flush into the output: sub-linear term frequency,
   * L2-normalised and scaled by `weight`; the scratch is reset.
   */
  flush(weight: number): void;
  /** Room for `more` entries after out.count. */
  reserve(more: number): void;
  /** One entry appended to the output. */
  push(index: number, value: number): void;
}

/**
 * An accumulator over 2^dimensionsLog2 buckets; `signalCount` is the number of signals a window may
 * carry, to size the output so that it grows only with unusually many prompt signals.
 */
export function createThreatFeatureAccumulator(config: ThreatFeatureConfig, signalCount: number): ThreatFeatureAccumulator {
  const size = 2 ** config.dimensionsLog2;
  // Counts per bucket and the buckets touched in this window. A window of W characters makes at most
  // (W + 2) character n-grams per length and fewer than 2W word n-grams, which bounds `touched`.
  const maxGramsPerWindow = (config.windowChars + 2) * (config.charNgramMax - config.charNgramMin + 1) + 2 * config.windowChars + 64;
  // Per bucket, 1 + its place in `touched` while its group is counted (0: not touched); the counts sit
  // beside `touched`, in the order the buckets were first seen, so the group's flush reads them in
  // sequence instead of one random read of a 2^18 table per bucket. 16-bit places when a window cannot
  // touch 65,535 buckets: half the memory the hot loop scatters into.
  const slots = maxGramsPerWindow < 0xffff ? new Uint16Array(size) : new Uint32Array(size);
  const touched = new Int32Array(Math.min(size, maxGramsPerWindow));
  const touchedCounts = new Int32Array(touched.length);
  const touchedLog = new Float64Array(touched.length);
  let touchedCount = 0;

  // Signals add at most one entry per signal and prompt signal (bounded by `signalRoom`).
  const signalRoom = 64 + signalCount;
  const indices = new Int32Array(3 * touched.length + signalRoom);
  const out: ThreatFeatureOutput = { indices, values: new Float32Array(indices.length), count: 0 };

  // Grows only with more prompt signals than signalRoom allows for.
  const reserve = (more: number): void => {
    if (out.count + more <= out.indices.length) return;
    const length = Math.max(out.indices.length * 2, out.count + more);
    const grownIndices = new Int32Array(length);
    grownIndices.set(out.indices);
    const grownValues = new Float32Array(length);
    grownValues.set(out.values);
    out.indices = grownIndices;
    out.values = grownValues;
  };

  const push = (index: number, value: number): void => {
    reserve(1);
    out.indices[out.count] = index;
    out.values[out.count] = value;
    out.count++;
  };

  // The group is written straight into the output arrays (room reserved once, not checked per entry).
  // The loops read the scratch through locals: a closure's variables are loaded again on every
  // iteration, which made these loops several times slower than their arithmetic.
  const flush = (weight: number): void => {
    const entries = touchedCount;
    const counts = touchedCounts;
    const logs = touchedLog;
    const log1p = LOG1P;
    // The sum runs in the order the buckets were first seen: the features' float32 values depend on it.
    let norm = 0;
    for (let i = 0; i < entries; i++) {
      const count = counts[i]!;
      const v = count < log1p.length ? log1p[count]! : Math.log1p(count);
      logs[i] = v;
      norm += v * v;
    }
    const scale = norm > 0 ? weight / Math.sqrt(norm) : 0;
    reserve(entries);
    const indices = out.indices;
    const values = out.values;
    const base = out.count;
    const buckets = touched;
    const places = slots;
    for (let i = 0; i < entries; i++) {
      const bucket = buckets[i]!;
      indices[base + i] = bucket;
      values[base + i] = logs[i]! * scale;
      places[bucket] = 0;
    }
    out.count = base + entries;
    touchedCount = 0;
  };

  const countAll = (buckets: Int32Array, length: number): void => {
    const places = slots;
    const seen = touched;
    const counts = touchedCounts;
    let entries = touchedCount;
    for (let j = 0; j < length; j++) {
      const bucket = buckets[j]!;
      const slot = places[bucket]!;
      if (slot === 0) {
        seen[entries] = bucket;
        counts[entries] = 1;
        places[bucket] = ++entries;
      } else counts[slot - 1]!++;
    }
    touchedCount = entries;
  };

  return { out, countAll, flush, reserve, push };
}
