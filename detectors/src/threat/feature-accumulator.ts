// The scratch the feature extractor counts a window's n-grams in, and the window's vector it flushes
// them into. Counting costs an array write instead of a Map insert; one accumulator serves one
// extractor (extraction is synchronous, so concurrent requests never interleave in it).
import type { ThreatFeatureConfig } from './features.js';

/** log1p of the small counts almost every bucket has, computed once (the same doubles as Math.log1p). */
const LOG1P = Float64Array.from({ length: 64 }, (_, k) => Math.log1p(k));

/**
 * How far a sum of `terms` positive doubles in some order may lie from the same sum in another order,
 * relative to the sum: each is within (terms - 1)·u/(1 - (terms - 1)·u) of the exact sum (u = 2^-53,
 * recursive summation; Higham, Accuracy and Stability of Numerical Algorithms, 4.2), so their distance
 * is within twice that; this bound is four times larger again.
 */
const orderSlack = (terms: number): number => (terms + 4) * 2 ** -50;

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
  // Per bucket, slotBase + 1 + its place in `touched` while its group is counted (slotBase or less: not
  // touched in this group); the counts sit beside `touched`, in the order the buckets were first seen,
  // so the group's flush reads them in sequence instead of one random read of a 2^18 table per bucket.
  // 16-bit places when a window cannot touch 65,535 buckets: half the memory the hot loop scatters into.
  const slots = maxGramsPerWindow < 0xffff ? new Uint16Array(size) : new Uint32Array(size);
  const touched = new Int32Array(Math.min(size, maxGramsPerWindow));
  const touchedCounts = new Int32Array(touched.length);
  let touchedCount = 0;
  // A flushed group is forgotten by moving slotBase past its places instead of clearing each of its
  // buckets (a random write per bucket into the table, a third of a flush); the table is cleared in one
  // sequential fill when the next group's places might not fit above the base.
  const slotLimit = (slots instanceof Uint16Array ? 0xffff : 0xffffffff) - touched.length;
  let slotBase = 0;

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
  //
  // A value is float32(log1p(count) · weight / sqrt(norm)), the norm summed in the order the buckets
  // were first seen (flushSequential). That sum is one chain of dependent additions, the slowest part
  // of a flush, so the norm is first summed in four independent chains: it then lies within orderSlack
  // of the sequential sum, which bounds the scale from both sides (sqrt, division, multiplication and
  // rounding are monotonic). Where both bounds give a count the same float32, that float32 is the
  // value the sequential sum gives; where some count gets two (about one group in 6,000), the group
  // is flushed by the sequential sum.
  const smallValues = new Float32Array(LOG1P.length);

  // The value of each count below the table's end for the scale's bounds into smallValues; false when
  // the bounds give some count two float32s.
  const tabulate = (scaleLow: number, scaleHigh: number): boolean => {
    const table = smallValues;
    const logs = LOG1P;
    for (let c = 1; c < logs.length; c++) {
      const low = Math.fround(logs[c]! * scaleLow);
      if (low !== Math.fround(logs[c]! * scaleHigh)) return false;
      table[c] = low;
    }
    return true;
  };

  // The group's entries into the output after tabulate(scaleLow, scaleHigh), and the scratch reset;
  // false, with the output and the counts as they were, when the bounds give a larger count two float32s.
  const write = (scaleLow: number, scaleHigh: number): boolean => {
    const entries = touchedCount;
    const counts = touchedCounts;
    const table = smallValues;
    const small = table.length;
    reserve(entries);
    const indices = out.indices;
    const values = out.values;
    const base = out.count;
    const buckets = touched;
    for (let k = 0; k < entries; k++) {
      const c = counts[k]!;
      if (c < small) values[base + k] = table[c]!;
      else {
        const v = Math.log1p(c);
        const low = Math.fround(v * scaleLow);
        if (low !== Math.fround(v * scaleHigh)) return false;
        values[base + k] = low;
      }
      indices[base + k] = buckets[k]!;
    }
    slotBase += entries;
    if (slotBase > slotLimit) {
      slots.fill(0);
      slotBase = 0;
    }
    out.count = base + entries;
    touchedCount = 0;
    return true;
  };

  // A group that might not fit the scratch (more distinct buckets than a window of the config's
  // length makes: a longer window given to vector()) is counted in a map, in first-seen order, and
  // flushed by the definition. Rare, so the hot loops keep their fixed arrays (a closure's typed
  // arrays that never change compile to faster loops).
  let oversized: Map<number, number> | undefined;
  const countOversized = (buckets: Int32Array, length: number): void => {
    if (oversized === undefined) {
      oversized = new Map();
      for (let k = 0; k < touchedCount; k++) oversized.set(touched[k]!, touchedCounts[k]!);
      // The places of the buckets counted so far are forgotten as a flush forgets them.
      slotBase += touchedCount;
      touchedCount = 0;
      if (slotBase > slotLimit) {
        slots.fill(0);
        slotBase = 0;
      }
    }
    for (let j = 0; j < length; j++) oversized.set(buckets[j]!, (oversized.get(buckets[j]!) ?? 0) + 1);
  };
  const flushOversized = (group: Map<number, number>, weight: number): void => {
    let exact = 0;
    for (const c of group.values()) {
      const v = Math.log1p(c);
      exact += v * v;
    }
    const scale = exact > 0 ? weight / Math.sqrt(exact) : 0;
    reserve(group.size);
    for (const [bucket, c] of group) {
      out.indices[out.count] = bucket;
      out.values[out.count] = Math.log1p(c) * scale;
      out.count++;
    }
  };

  // The group's norm summed in four chains, then written within the bounds that sum gives; false when
  // the bounds give some count two float32s (nothing written then). The loop calls nothing and has no
  // rare path beside it: a helper called for counts past the table (a space's 1-gram in every window),
  // or the sequential flush inlined here, made V8 box the sums, a heap number per entry (55 MB of
  // garbage per MiB of prompt).
  const flushBounded = (weight: number, entries: number): boolean => {
    const counts = touchedCounts;
    const logs = LOG1P;
    const small = logs.length;
    let norm0 = 0;
    let norm1 = 0;
    let norm2 = 0;
    let norm3 = 0;
    let i = 0;
    for (; i + 4 <= entries; i += 4) {
      const c0 = counts[i]!;
      const c1 = counts[i + 1]!;
      const c2 = counts[i + 2]!;
      const c3 = counts[i + 3]!;
      const v0 = c0 < small ? logs[c0]! : Math.log1p(c0);
      const v1 = c1 < small ? logs[c1]! : Math.log1p(c1);
      const v2 = c2 < small ? logs[c2]! : Math.log1p(c2);
      const v3 = c3 < small ? logs[c3]! : Math.log1p(c3);
      norm0 += v0 * v0;
      norm1 += v1 * v1;
      norm2 += v2 * v2;
      norm3 += v3 * v3;
    }
    for (; i < entries; i++) {
      const c = counts[i]!;
      const v = c < small ? logs[c]! : Math.log1p(c);
      norm0 += v * v;
    }
    const norm = norm0 + norm1 + (norm2 + norm3);
    if (!(norm > 0)) return false;
    const slack = norm * orderSlack(entries);
    const scaleLow = weight / Math.sqrt(norm + slack);
    const scaleHigh = weight / Math.sqrt(norm - slack);
    return tabulate(scaleLow, scaleHigh) && write(scaleLow, scaleHigh);
  };

  // The flush as the features define it: the norm summed in the order the buckets were first seen.
  const flushSequential = (weight: number, entries: number): void => {
    const counts = touchedCounts;
    const small = LOG1P.length;
    let exact = 0;
    for (let k = 0; k < entries; k++) {
      const c = counts[k]!;
      const v = c < small ? LOG1P[c]! : Math.log1p(c);
      exact += v * v;
    }
    const scale = exact > 0 ? weight / Math.sqrt(exact) : 0;
    tabulate(scale, scale);
    write(scale, scale);
  };

  const flush = (weight: number): void => {
    if (oversized !== undefined) {
      const group = oversized;
      oversized = undefined;
      flushOversized(group, weight);
      return;
    }
    const entries = touchedCount;
    if (!flushBounded(weight, entries)) flushSequential(weight, entries);
  };

  const countAll = (buckets: Int32Array, length: number): void => {
    if (oversized !== undefined || touchedCount + length > touched.length) {
      countOversized(buckets, length);
      return;
    }
    const places = slots;
    const seen = touched;
    const counts = touchedCounts;
    const first = slotBase + 1;
    let entries = touchedCount;
    for (let j = 0; j < length; j++) {
      const bucket = buckets[j]!;
      const slot = places[bucket]!;
      if (slot < first) {
        seen[entries] = bucket;
        counts[entries] = 1;
        places[bucket] = first + entries++;
      } else counts[slot - first]!++;
    }
    touchedCount = entries;
  };

  return { out, countAll, flush, reserve, push };
}
