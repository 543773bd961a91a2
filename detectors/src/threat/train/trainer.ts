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

/** The parameters being trained and AdamW's state: the sparse first layer w1 and the dense rest. */
interface TrainState {
  H: number;
  linear: boolean;
  w1: Float32Array;
  m1: Float32Array;
  v1: Float32Array;
  g1: Float32Array;
  /** Per bucket: the step of its last update, whether the batch touched it, whether any batch did. */
  lastStep: Int32Array;
  inBatch: Uint8Array;
  seen: Uint8Array;
  /** The buckets the batch touched (rowCount of them). */
  rows: Int32Array;
  rowCount: number;
  /** Dense parameters after w1: b1 (no decay), w2, b2 (no decay) in one vector. */
  denseW: Float32Array;
  denseM: Float32Array;
  denseV: Float32Array;
  denseG: Float32Array;
  denseDecays: Uint8Array;
  b2Index: number;
  /** Scratch of one example: the hidden pre-activations and their gradient. */
  pre: Float64Array;
  dh: Float64Array;
  step: number;
}

/** Random initial weights of the MLP (the linear head starts at zero). */
function initialise(head: ThreatHeadWeights, options: ThreatTrainOptions, random: ReturnType<typeof createThreatRandom>): void {
  if (head.kind === 'linear') return;
  const H = head.hidden;
  for (let i = 0; i < head.w1.length; i++) head.w1[i] = random.normal() * options.initScale;
  for (let j = 0; j < H; j++) head.w2[j] = random.normal() / Math.sqrt(H);
  head.b1.fill(0.01);
}

function trainState(head: ThreatHeadWeights, dimensions: number): TrainState {
  const H = head.hidden;
  const linear = head.kind === 'linear';
  const denseW = new Float32Array(2 * (linear ? 0 : H) + 1);
  const denseDecays = new Uint8Array(denseW.length);
  if (!linear) {
    denseW.set(head.b1, 0);
    denseW.set(head.w2, H);
    denseDecays.fill(1, H, 2 * H);
  }
  return {
    H,
    linear,
    w1: head.w1,
    m1: new Float32Array(head.w1.length),
    v1: new Float32Array(head.w1.length),
    g1: new Float32Array(head.w1.length),
    lastStep: new Int32Array(dimensions),
    inBatch: new Uint8Array(dimensions),
    seen: new Uint8Array(dimensions),
    rows: new Int32Array(4096),
    rowCount: 0,
    denseW,
    denseM: new Float32Array(denseW.length),
    denseV: new Float32Array(denseW.length),
    denseG: new Float32Array(denseW.length),
    denseDecays,
    b2Index: denseW.length - 1,
    pre: new Float64Array(H),
    dh: new Float64Array(H),
    step: 0,
  };
}

/**
 * Forward and backward pass of one example (loss weight `w`, normalised): its gradient is added to
 * the batch's, the w1 rows it touches are noted. Returns its weighted loss.
 */
function accumulate(s: TrainState, example: ThreatExample, w: number, batchSize: number): number {
  const { H, linear, w1, g1, inBatch, denseW, denseG, b2Index, pre, dh } = s;
  const { indices, values } = example.vector;
  const n = indices.length;
  if (s.rowCount + n > s.rows.length) {
    const grown = new Int32Array(Math.max(s.rows.length * 2, s.rowCount + n));
    grown.set(s.rows.subarray(0, s.rowCount));
    s.rows = grown;
  }
  const rows = s.rows;
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
  const loss = w * (y === 1 ? Math.log(Math.max(p, 1e-7)) : Math.log(Math.max(1 - p, 1e-7)));
  const g = (w / batchSize) * (p - y);
  denseG[b2Index]! += g;
  // Backward.
  if (linear) {
    for (let i = 0; i < n; i++) {
      const r = indices[i]!;
      if (inBatch[r] === 0) {
        inBatch[r] = 1;
        rows[s.rowCount++] = r;
      }
      g1[r]! += g * values[i]!;
    }
    return loss;
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
      rows[s.rowCount++] = r;
    }
    const v = values[i]!;
    const base = r * H;
    for (let j = 0; j < H; j++) g1[base + j]! += v * dh[j]!;
  }
  return loss;
}

/** One AdamW step: the batch's rows of w1 (with the decay of the steps they sat out), then the dense parameters; the gradients are cleared. */
function adamStep(s: TrainState, lr: number, decay: number, logDecay: number): void {
  const { H, w1, m1, v1, g1, lastStep, inBatch, seen, rows, denseW, denseM, denseV, denseG, denseDecays } = s;
  const step = ++s.step;
  const stepLr = lr / (1 - BETA1 ** step);
  const rc2 = 1 / Math.sqrt(1 - BETA2 ** step);
  for (let t = 0; t < s.rowCount; t++) {
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
  s.rowCount = 0;
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

/**
 * The trained weights into the head. Rows untouched since their last update get the decay they
 * missed; rows never seen in training would only add their random initial noise at inference, so they
 * are cleared.
 */
function finish(s: TrainState, head: ThreatHeadWeights, dimensions: number, logDecay: number): ThreatHeadWeights {
  const { H, w1, seen, lastStep, step, denseW } = s;
  for (let r = 0; r < dimensions; r++) {
    const factor = seen[r] ? Math.exp(logDecay * (step - lastStep[r]!)) : 0;
    for (let k = r * H; k < (r + 1) * H; k++) w1[k]! *= factor;
  }
  if (!s.linear) {
    head.b1.set(denseW.subarray(0, H));
    head.w2.set(denseW.subarray(H, 2 * H));
  }
  head.b2 = denseW[s.b2Index]!;
  return head;
}

export function trainThreatHead(examples: readonly ThreatExample[], options: ThreatTrainOptions, log?: ThreatTrainLog): ThreatHeadWeights {
  const random = createThreatRandom(options.seed);
  const head = emptyThreatHead(options.kind, options.dimensions, options.hidden);
  initialise(head, options, random);
  const state = trainState(head, options.dimensions);
  const lr = options.learningRate;
  const decay = 1 - lr * options.weightDecay;
  const logDecay = Math.log(decay);

  // Normalised so that the mean example weight is 1: the learning rate means the same for any mix.
  const meanWeight = examples.reduce((s, e) => s + e.weight, 0) / Math.max(1, examples.length);
  const order = examples.map((_, i) => i);

  for (let epoch = 0; epoch < options.epochs; epoch++) {
    random.shuffle(order);
    let loss = 0;
    for (let start = 0; start < order.length; start += options.batchSize) {
      const end = Math.min(order.length, start + options.batchSize);
      for (let e = start; e < end; e++) {
        const example = examples[order[e]!]!;
        loss -= accumulate(state, example, example.weight / meanWeight, end - start);
      }
      adamStep(state, lr, decay, logDecay);
    }
    log?.(`epoch ${epoch + 1}/${options.epochs}: weighted loss ${(loss / examples.length).toFixed(4)}`);
  }
  return finish(state, head, options.dimensions, logDecay);
}
