// The learned head over the sparse hashed features, in plain JS: the reference forward pass that the
// trainer uses and that the ONNX graph must reproduce. An embedding-bag first layer (one weight row per
// non-zero bucket, scaled by its value and summed) keeps the cost proportional to the non-zeros.
import type { ThreatSparseVector } from './features.js';

export type ThreatHeadKind = 'linear' | 'mlp';

export interface ThreatHeadWeights {
  kind: ThreatHeadKind;
  /** Number of hash buckets (rows of w1). */
  dimensions: number;
  /** Hidden units of the MLP; 1 for the linear head (w1 is then the weight vector). */
  hidden: number;
  /** [dimensions × hidden], row-major: bucket i's row starts at i × hidden. */
  w1: Float32Array;
  /** [hidden] (MLP only; empty for linear). */
  b1: Float32Array;
  /** [hidden] (MLP only; empty for linear). */
  w2: Float32Array;
  /** Output bias. */
  b2: number;
}

export function threatSigmoid(z: number): number {
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

export function emptyThreatHead(kind: ThreatHeadKind, dimensions: number, hidden: number): ThreatHeadWeights {
  const h = kind === 'linear' ? 1 : hidden;
  return {
    kind,
    dimensions,
    hidden: h,
    w1: new Float32Array(dimensions * h),
    b1: new Float32Array(kind === 'linear' ? 0 : h),
    w2: new Float32Array(kind === 'linear' ? 0 : h),
    b2: 0,
  };
}

/** The head's logit for one window. */
export function threatHeadLogit(head: ThreatHeadWeights, x: ThreatSparseVector): number {
  const { indices, values } = x;
  if (head.kind === 'linear') {
    let z = head.b2;
    for (let i = 0; i < indices.length; i++) z += head.w1[indices[i]!]! * values[i]!;
    return z;
  }
  const H = head.hidden;
  const pre = new Float64Array(H);
  pre.set(head.b1);
  for (let i = 0; i < indices.length; i++) {
    const row = indices[i]! * H;
    const v = values[i]!;
    for (let j = 0; j < H; j++) pre[j]! += head.w1[row + j]! * v;
  }
  let z = head.b2;
  for (let j = 0; j < H; j++) if (pre[j]! > 0) z += pre[j]! * head.w2[j]!;
  return z;
}

/** The prompt's logit: the highest window logit (the calibration is monotone in it). */
export function threatPromptLogit(head: ThreatHeadWeights, windows: readonly ThreatSparseVector[]): number {
  let best = Number.NEGATIVE_INFINITY;
  for (const w of windows) best = Math.max(best, threatHeadLogit(head, w));
  return best;
}
