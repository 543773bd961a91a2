// Trains the head on sparse windows: weighted binary cross-entropy, mini-batch AdamW. The first layer
// is updated lazily (only the rows of buckets in the batch), with the decoupled weight decay of the
// skipped steps applied when a row is next touched and once more at the end, which is exactly what
// dense AdamW would do to a row whose gradient was zero. Deterministic for a given seed. The loops are
// written with local typed arrays only: this runs ~10^9 multiply-adds per training.
import type { ThreatSparseVector } from '../features.js';
import { emptyThreatHead, type ThreatHeadKind, type ThreatHeadWeights } from '../head.js';
import { createThreatRandom } from './prng.js';

export interface ThreatExample {
  vector: ThreatSparseVector;
  label: 0 | 1;
  /** Loss weight (class and source balancing, 1/number of windows of the row). */
  weight: number;
}

export interface ThreatTrainOptions {
  kind: ThreatHeadKind;
  /** Hidden units of the MLP (ignored by the linear head). */
  hidden: number;
  dimensions: number;
  epochs: number;
  batchSize: number;
  learningRate: number;
  /** Decoupled weight decay per step, as a fraction of the learning rate (AdamW's λ). */
  weightDecay: number;
  seed: number;
  /** Std of the first layer's initial weights (MLP). */
  initScale: number;
}

const BETA1 = 0.9;
const BETA2 = 0.999;
const EPSILON = 1e-8;

export type ThreatTrainLog = (message: string) => void;

export function trainThreatHead(examples: readonly ThreatExample[], options: ThreatTrainOptions, log?: ThreatTrainLog): ThreatHeadWeights {
  const random = createThreatRandom(options.seed);
  const head = emptyThreatHead(options.kind, options.dimensions, options.hidden);
  const H = head.hidden;
  const linear = head.kind === 'linear';
  const w1 = head.w1;
  const b1 = head.b1;
  const w2 = head.w2;
  if (!linear) {
    for (let i = 0; i < w1.length; i++) w1[i] = random.normal() * options.initScale;
    for (let j = 0; j < H; j++) w2[j] = random.normal() / Math.sqrt(H);
    b1.fill(0.01);
  }

  const m1 = new Float32Array(w1.length);
  const v1 = new Float32Array(w1.length);
  const g1 = new Float32Array(w1.length);
  const lastStep = new Int32Array(options.dimensions);
  const inBatch = new Uint8Array(options.dimensions);
  const seen = new Uint8Array(options.dimensions);
  let rows = new Int32Array(4096);
  let rowCount = 0;
  // Dense parameters after w1: b1 (no decay), w2, b2 (no decay) in one vector.
  const denseW = new Float32Array(2 * (linear ? 0 : H) + 1);
  const denseM = new Float32Array(denseW.length);
  const denseV = new Float32Array(denseW.length);
  const denseG = new Float32Array(denseW.length);
  const denseDecays = new Uint8Array(denseW.length);
  if (!linear) {
    denseW.set(b1, 0);
    denseW.set(w2, H);
    denseDecays.fill(1, H, 2 * H);
  }
  const b2Index = denseW.length - 1;
  const pre = new Float64Array(H);
  const dh = new Float64Array(H);
  const lr = options.learningRate;
  const decay = 1 - lr * options.weightDecay;
  const logDecay = Math.log(decay);
  let step = 0;

  // Normalised so that the mean example weight is 1: the learning rate means the same for any mix.
  const meanWeight = examples.reduce((s, e) => s + e.weight, 0) / Math.max(1, examples.length);
  const order = examples.map((_, i) => i);

  for (let epoch = 0; epoch < options.epochs; epoch++) {
    random.shuffle(order);
    let loss = 0;
    for (let start = 0; start < order.length; start += options.batchSize) {
      const end = Math.min(order.length, start + options.batchSize);
      const batchSize = end - start;
      for (let e = start; e < end; e++) {
        const example = examples[order[e]!]!;
        const { indices, values } = example.vector;
        const n = indices.length;
        if (rowCount + n > rows.length) {
          const grown = new Int32Array(Math.max(rows.length * 2, rowCount + n));
          grown.set(rows.subarray(0, rowCount));
          rows = grown;
        }
        // Forward.
        let z = denseW[b2Index]!;
        if (linear) {
          for (let i = 0; i < n; i++) z += w1[indices[i]!]! * values[i]!;
        } else {
          for (let j = 0; j < H; j++) pre[j] = denseW[j]!;
          for (let i = 0; i < n; i++) {
            const base = indices[i]! * H;
            const v = values[i]!;
            for (let j = 0; j < H; j++) pre[j]! += w1[base + j]! * v;
          }
          for (let j = 0; j < H; j++) if (pre[j]! > 0) z += pre[j]! * denseW[H + j]!;
        }
        const p = z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
        const y = example.label;
        const w = example.weight / meanWeight;
        loss -= w * (y === 1 ? Math.log(Math.max(p, 1e-7)) : Math.log(Math.max(1 - p, 1e-7)));
        const g = (w / batchSize) * (p - y);
        denseG[b2Index]! += g;
        // Backward.
        if (linear) {
          for (let i = 0; i < n; i++) {
            const r = indices[i]!;
            if (inBatch[r] === 0) {
              inBatch[r] = 1;
              rows[rowCount++] = r;
            }
            g1[r]! += g * values[i]!;
          }
          continue;
        }
        for (let j = 0; j < H; j++) {
          if (pre[j]! > 0) {
            denseG[H + j]! += g * pre[j]!;
            dh[j] = g * denseW[H + j]!;
          } else dh[j] = 0;
          denseG[j]! += dh[j]!;
        }
        for (let i = 0; i < n; i++) {
          const r = indices[i]!;
          if (inBatch[r] === 0) {
            inBatch[r] = 1;
            rows[rowCount++] = r;
          }
          const v = values[i]!;
          const base = r * H;
          for (let j = 0; j < H; j++) g1[base + j]! += v * dh[j]!;
        }
      }

      step++;
      const stepLr = lr / (1 - BETA1 ** step);
      const rc2 = 1 / Math.sqrt(1 - BETA2 ** step);
      for (let t = 0; t < rowCount; t++) {
        const r = rows[t]!;
        // The decay of the steps this row sat out, then this step's.
        const factor = Math.exp(logDecay * (step - lastStep[r]!));
        lastStep[r] = step;
        inBatch[r] = 0;
        seen[r] = 1;
        const base = r * H;
        for (let k = base; k < base + H; k++) {
          const gk = g1[k]!;
          const m = BETA1 * m1[k]! + (1 - BETA1) * gk;
          const v = BETA2 * v1[k]! + (1 - BETA2) * gk * gk;
          m1[k] = m;
          v1[k] = v;
          w1[k] = w1[k]! * factor - (stepLr * m) / (Math.sqrt(v) * rc2 + EPSILON);
          g1[k] = 0;
        }
      }
      rowCount = 0;
      for (let k = 0; k < denseW.length; k++) {
        const gk = denseG[k]!;
        const m = BETA1 * denseM[k]! + (1 - BETA1) * gk;
        const v = BETA2 * denseV[k]! + (1 - BETA2) * gk * gk;
        denseM[k] = m;
        denseV[k] = v;
        denseW[k] = denseW[k]! * (denseDecays[k] ? decay : 1) - (stepLr * m) / (Math.sqrt(v) * rc2 + EPSILON);
        denseG[k] = 0;
      }
    }
    log?.(`epoch ${epoch + 1}/${options.epochs}: weighted loss ${(loss / examples.length).toFixed(4)}`);
  }

  // Rows untouched since their last update get the decay they missed; rows never seen in training
  // would only add their random initial noise at inference, so they are cleared.
  for (let r = 0; r < options.dimensions; r++) {
    const factor = seen[r] ? Math.exp(logDecay * (step - lastStep[r]!)) : 0;
    for (let k = r * H; k < (r + 1) * H; k++) w1[k]! *= factor;
  }
  if (!linear) {
    b1.set(denseW.subarray(0, H));
    w2.set(denseW.subarray(H, 2 * H));
  }
  head.b2 = denseW[b2Index]!;
  return head;
}
