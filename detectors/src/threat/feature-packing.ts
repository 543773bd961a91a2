// The window vectors of a run copied out of the accumulator's output: packed side by side for the
// model (packedVectors), or one sparse vector per window (extract).
import type { ThreatFeatureOutput } from './feature-accumulator.js';
import type { ThreatWindowCutter } from './feature-windows.js';
import type { ThreatPackedScratch, ThreatPackedVectors, ThreatPromptFeatures, ThreatRunVectors, ThreatSparseVector, ThreatWindow } from './features.js';
import { THREAT_SIGNAL_FAMILIES, type ThreatSignalFamily } from './signals.js';

/**
 * A vector already computed for a window with the same body (the same text and offset, or the same
 * bodyKey): its entries before the signal ones, and, for a de-obfuscated window's twin, its signals.
 */
export interface ThreatTwinVector {
  indices: Int32Array;
  values: Float32Array;
  body: number;
  found?: readonly ThreatSignalFamily[];
}

/** What packing needs of the extractor: the window's vector filled into `out`, and its windows. */
export interface ThreatVectorSource {
  out: ThreatFeatureOutput;
  /** The window's vector into out; returns its signals (see fillVector in features.ts). */
  fill(window: ThreatWindow, known?: readonly ThreatSignalFamily[], twin?: ThreatTwinVector): readonly ThreatSignalFamily[];
  /** What a window's vector but its signal entries depends on, when that is its text alone; undefined otherwise. */
  bodyKey(window: ThreatWindow): string | undefined;
  /** The part of the vector just filled that a twin window shares (all but the signal entries). */
  bodyCount(window: ThreatWindow, found: readonly ThreatSignalFamily[]): number;
  cutter: ThreatWindowCutter;
}

export interface ThreatVectorPacking {
  runVectors(windows: readonly ThreatWindow[], signals: readonly (readonly ThreatSignalFamily[])[], scratch?: ThreatPackedScratch): ThreatRunVectors;
  packedVectors(windows: readonly ThreatWindow[], signals: readonly (readonly ThreatSignalFamily[])[], scratch?: ThreatPackedScratch): ThreatPackedVectors;
  extract(prompt: string): ThreatPromptFeatures;
}

/**
 * A run's vectors padded to its longest into [windows × width] (index 0, value 0), as a graph with a
 * fixed feature axis takes them. With `into`, written into its arrays (grown when too short) and views
 * of them returned: a run's fresh arrays of a megabyte or more cost more in page faults than filling them.
 */
export function padThreatRun(run: ThreatRunVectors, into?: { indices: Int32Array; values: Float32Array }): ThreatPackedVectors {
  const { ends, width } = run;
  const size = ends.length * width;
  let indices: Int32Array;
  let values: Float32Array;
  if (into === undefined) {
    indices = new Int32Array(size);
    values = new Float32Array(size);
  } else {
    if (into.indices.length < size) {
      into.indices = new Int32Array(size);
      into.values = new Float32Array(size);
    }
    indices = into.indices.subarray(0, size);
    values = into.values.subarray(0, size);
  }
  for (let i = 0, start = 0; i < ends.length; start = ends[i]!, i++) {
    const row = i * width;
    const end = row + ends[i]! - start;
    indices.set(run.indices.subarray(start, ends[i]!), row);
    values.set(run.values.subarray(start, ends[i]!), row);
    // Reused arrays hold the last run's entries where this one pads.
    if (into !== undefined) {
      indices.fill(0, end, row + width);
      values.fill(0, end, row + width);
    }
  }
  return { indices, values, width };
}

// Short vectors (a repetitive text's) are carved from shared 64 KiB slabs, not two arrays each: an
// array's own buffer is a malloc, an external-memory record and GC bookkeeping, which on thousands
// of small windows cost about a tenth of the features. Longer vectors (prose) take two arrays: there
// slabs measured slower.
const SLAB_BYTES = 1 << 16;
const SLAB_VECTOR_BYTES = 1 << 14;

export function createThreatVectorPacking({ out, fill, bodyKey, bodyCount, cutter }: ThreatVectorSource): ThreatVectorPacking {
  // The run's vectors are written end to end into the scratch the prompt holds (never into arrays of
  // the extractor's: another prompt's run may be packed while this one's is scored).
  const runVectors = (windows: readonly ThreatWindow[], signals: readonly (readonly ThreatSignalFamily[])[], scratch?: ThreatPackedScratch): ThreatRunVectors => {
    const run = scratch ?? { indices: new Int32Array(0), values: new Float32Array(0) };
    const ends = new Int32Array(windows.length);
    let used = 0;
    let width = 1;
    // Where each window's vector starts in the run, for its twin later in the run.
    const placed = new Map<ThreatWindow, { start: number; body: number; found: readonly ThreatSignalFamily[] }>();
    // Where the first window of each body key starts in the run.
    const bodies = new Map<string, { start: number; body: number }>();
    for (let i = 0; i < windows.length; i++) {
      const window = windows[i]!;
      const twinOf = cutter.twinOf(window);
      const twin = twinOf === undefined ? undefined : placed.get(twinOf);
      const key = twin === undefined ? bodyKey(window) : undefined;
      const same = key === undefined ? undefined : bodies.get(key);
      const shared = twin ?? same;
      const found = fill(
        window,
        signals[i],
        shared && { indices: run.indices.subarray(shared.start), values: run.values.subarray(shared.start), body: shared.body, found: twin?.found },
      );
      if (cutter.hasTwin(window)) placed.set(window, { start: used, body: bodyCount(window, found), found });
      if (key !== undefined && same === undefined) bodies.set(key, { start: used, body: bodyCount(window, found) });
      const count = out.count;
      if (used + count > run.indices.length) {
        // Room for the windows left at this one's size, so a run grows once or twice, not per window.
        const length = Math.max(2 * run.indices.length, used + count * (windows.length - i));
        const grownIndices = new Int32Array(length);
        grownIndices.set(run.indices.subarray(0, used));
        const grownValues = new Float32Array(length);
        grownValues.set(run.values.subarray(0, used));
        run.indices = grownIndices;
        run.values = grownValues;
      }
      run.indices.set(out.indices.subarray(0, count), used);
      run.values.set(out.values.subarray(0, count), used);
      used += count;
      ends[i] = used;
      if (count > width) width = count;
    }
    const vectors: ThreatRunVectors = { indices: run.indices.subarray(0, used), values: run.values.subarray(0, used), ends, width };
    if (scratch !== undefined) vectors.padInto = scratch.padded ??= { indices: new Int32Array(0), values: new Float32Array(0) };
    return vectors;
  };

  const packedVectors = (windows: readonly ThreatWindow[], signals: readonly (readonly ThreatSignalFamily[])[], scratch?: ThreatPackedScratch): ThreatPackedVectors => {
    const run = runVectors(windows, signals, scratch);
    return padThreatRun(run, run.padInto);
  };

  const extract = (prompt: string): ThreatPromptFeatures => {
    const rules = new Float32Array(THREAT_SIGNAL_FAMILIES.length);
    const all = cutter.windows(prompt);
    let slab = new ArrayBuffer(0);
    let used = 0;
    const done = new Map<ThreatWindow, ThreatTwinVector>();
    const bodies = new Map<string, ThreatTwinVector>();
    const vectors = all.map((w, k): ThreatSparseVector => {
      const twinOf = cutter.twinOf(w);
      const twin = twinOf === undefined ? undefined : done.get(twinOf);
      const key = twin === undefined ? bodyKey(w) : undefined;
      const same = key === undefined ? undefined : bodies.get(key);
      const found = fill(w, undefined, twin ?? same);
      const count = out.count;
      const bytes = 8 * count;
      let indices: Int32Array;
      let values: Float32Array;
      if (bytes > SLAB_VECTOR_BYTES) {
        indices = out.indices.slice(0, count);
        values = out.values.slice(0, count);
      } else {
        if (used + bytes > slab.byteLength) {
          // Room for the windows left at this one's size, so a short prompt takes one small slab.
          slab = new ArrayBuffer(Math.min(SLAB_BYTES, bytes * (all.length - k)));
          used = 0;
        }
        indices = new Int32Array(slab, used, count);
        values = new Float32Array(slab, used + 4 * count, count);
        used += bytes;
        indices.set(out.indices.subarray(0, count));
        values.set(out.values.subarray(0, count));
      }
      if (cutter.hasTwin(w)) done.set(w, { indices, values, body: bodyCount(w, found), found });
      if (key !== undefined && same === undefined) bodies.set(key, { indices, values, body: bodyCount(w, found) });
      for (const family of found) rules[THREAT_SIGNAL_FAMILIES.indexOf(family)] = 1;
      return { indices, values };
    });
    return { windows: vectors, rules };
  };

  return { runVectors, packedVectors, extract };
}
