// Calibration: Platt scaling of the head's prompt logit, extended with the signal families as rule
// inputs: probability = sigmoid(a·logit + Σ c_k·rule_k + b). It is fitted only on out-of-fold logits
// (cross-fitting by source group, train/recipe.ts), so `a` says how far the head's logit can be
// trusted on an unseen source and each c_k how much a rule adds beyond it; c_k ≥ 0 (a rule is evidence
// of an attack, never of innocence) and an L2 penalty keeps rare rules modest. A rule may be given a
// floor below 0 instead (the defensive family: "never reveal these instructions" is how a system
// prompt protects itself, evidence of innocence), bounded so that such a phrase added to an attack
// cannot take more than the floor off its logit. Without rules this is
// exactly Platt's method (his smoothed targets, a Newton solver with line search). The fitted values
// are folded into the ONNX graph's `probability` output.
import { threatSigmoid } from './head.js';

export interface ThreatCalibration {
  a: number;
  b: number;
  /** One weight per rule input (THREAT_SIGNAL_FAMILIES order); empty for plain Platt scaling. */
  ruleWeights: number[];
}

export interface ThreatCalibrationOptions {
  /** L2 penalty on the rule weights (in units of the summed log-loss). */
  l2: number;
  /** The least weight of each rule (absent or shorter: 0 for the rest). */
  ruleFloors?: readonly number[];
}

export const THREAT_CALIBRATION_DEFAULTS: ThreatCalibrationOptions = { l2: 1 };

/** Solves A x = y (A symmetric positive definite, small) by Gaussian elimination with pivoting. */
function solve(A: number[][], y: number[]): number[] {
  const n = y.length;
  const M = A.map((row, i) => [...row, y[i]!]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(M[r]![col]!) > Math.abs(M[pivot]![col]!)) pivot = r;
    [M[col], M[pivot]] = [M[pivot]!, M[col]!];
    const d = M[col]![col]!;
    if (Math.abs(d) < 1e-300) throw new Error('singular system in calibration');
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = M[r]![col]! / d;
      for (let c = col; c <= n; c++) M[r]![c]! -= f * M[col]![c]!;
    }
  }
  return M.map((row, i) => row[n]! / row[i]!);
}

/**
 * The fitting problem over the parameters [a, c_0 … c_{K-1}, b]: row i's input to parameter j, its
 * smoothed target (Platt's: (N₊+1)/(N₊+2) for an attack, 1/(N₋+2) otherwise) and the L2 penalty.
 */
interface Problem {
  /** Rows. */
  n: number;
  /** Rule inputs per row. */
  K: number;
  /** Parameters: K + 2. */
  P: number;
  x(i: number, j: number): number;
  target(i: number): number;
  l2: number;
}

/** The penalised log-loss at parameters t. */
function loss(problem: Problem, t: number[]): number {
  const { n, K, P, x } = problem;
  let f = 0;
  for (let i = 0; i < n; i++) {
    let z = 0;
    for (let j = 0; j < P; j++) z += t[j]! * x(i, j);
    const target = problem.target(i);
    // -[t log σ(z) + (1-t) log(1-σ(z))], stable for either sign of z.
    f += z >= 0 ? (1 - target) * z + Math.log1p(Math.exp(-z)) : -target * z + Math.log1p(Math.exp(z));
  }
  for (let k = 1; k <= K; k++) f += (problem.l2 / 2) * t[k]! ** 2;
  return f;
}

/** The loss's gradient and Hessian at theta. */
function derivatives(problem: Problem, theta: number[]): { grad: number[]; hess: number[][] } {
  const { n, K, P, x } = problem;
  const grad = new Array<number>(P).fill(0);
  const hess = Array.from({ length: P }, () => new Array<number>(P).fill(0));
  for (let i = 0; i < n; i++) {
    let z = 0;
    for (let j = 0; j < P; j++) z += theta[j]! * x(i, j);
    const p = threatSigmoid(z);
    const d1 = p - problem.target(i);
    const d2 = Math.max(p * (1 - p), 1e-12);
    for (let j = 0; j < P; j++) {
      const xj = x(i, j);
      if (xj === 0) continue;
      grad[j]! += d1 * xj;
      for (let k = 0; k < P; k++) hess[j]![k]! += d2 * xj * x(i, k);
    }
  }
  for (let k = 1; k <= K; k++) {
    grad[k]! += problem.l2 * theta[k]!;
    hess[k]![k]! += problem.l2;
  }
  return { grad, hess };
}

/**
 * One damped Newton step over the free parameters, in place: the full step, halved until the loss
 * falls enough (Armijo). Returns the new loss, or undefined when there is nothing left to gain.
 */
function newtonStep(problem: Problem, theta: number[], free: readonly boolean[], current: number): number | undefined {
  const { grad, hess } = derivatives(problem, theta);
  const idx = [...Array(problem.P).keys()].filter((j) => free[j]);
  for (const j of idx) hess[j]![j]! += 1e-9;
  const step = solve(
    idx.map((j) => idx.map((k) => hess[j]![k]!)),
    idx.map((j) => -grad[j]!),
  );
  const slope = idx.reduce((s, j, m) => s + grad[j]! * step[m]!, 0);
  if (-slope < 1e-10) return undefined;
  for (let size = 1; size > 1e-10; size /= 2) {
    const candidate = [...theta];
    idx.forEach((j, m) => (candidate[j] = theta[j]! + size * step[m]!));
    const value = loss(problem, candidate);
    if (value <= current + 1e-4 * size * slope) {
      theta.splice(0, problem.P, ...candidate);
      return value;
    }
  }
  return undefined;
}

/** Minimises the loss over the free parameters, in place (at most 100 Newton steps). */
function minimise(problem: Problem, theta: number[], free: readonly boolean[]): void {
  let current = loss(problem, theta);
  for (let iteration = 0; iteration < 100; iteration++) {
    const next = newtonStep(problem, theta, free, current);
    if (next === undefined) return;
    current = next;
  }
}

/**
 * Fits the calibration. `rules[i]` holds row i's rule inputs (0/1), all of the same length (0 for
 * plain Platt). Rules that end below their floor (0 unless `ruleFloors` says otherwise) are pinned at
 * it and the rest refitted (an active-set method).
 */
export function fitThreatCalibration(
  logits: ArrayLike<number>,
  rules: ReadonlyArray<ArrayLike<number>>,
  labels: ArrayLike<number>,
  options: ThreatCalibrationOptions = THREAT_CALIBRATION_DEFAULTS,
): ThreatCalibration {
  const n = logits.length;
  if (n === 0 || labels.length !== n || rules.length !== n) throw new Error('fitThreatCalibration: need one label and one rule vector per logit');
  const K = rules[0]!.length;
  let positives = 0;
  for (let i = 0; i < n; i++) positives += labels[i] === 1 ? 1 : 0;
  const negatives = n - positives;
  const hi = (positives + 1) / (positives + 2);
  const lo = 1 / (negatives + 2);
  const P = K + 2;
  const problem: Problem = {
    n,
    K,
    P,
    x: (i, j) => (j === 0 ? logits[i]! : j === P - 1 ? 1 : rules[i]![j - 1]!),
    target: (i) => (labels[i] === 1 ? hi : lo),
    l2: options.l2,
  };
  const theta = new Array<number>(P).fill(0);
  theta[P - 1] = Math.log((positives + 1) / (negatives + 1));
  const free = new Array<boolean>(P).fill(true);
  const floor = (j: number) => options.ruleFloors?.[j - 1] ?? 0;
  for (let round = 0; round <= K; round++) {
    minimise(problem, theta, free);
    const below = [...Array(K).keys()].map((k) => k + 1).filter((j) => free[j] && theta[j]! < floor(j));
    if (below.length === 0) break;
    for (const j of below) {
      free[j] = false;
      theta[j] = floor(j);
    }
  }
  return { a: theta[0]!, b: theta[P - 1]!, ruleWeights: theta.slice(1, P - 1) };
}

/** Plain Platt scaling: the calibration without rule inputs. */
export function fitThreatPlatt(logits: ArrayLike<number>, labels: ArrayLike<number>): ThreatCalibration {
  return fitThreatCalibration(logits, Array.from({ length: logits.length }, () => []), labels);
}

export function applyThreatCalibration(calibration: ThreatCalibration, logit: number, rules: ArrayLike<number> = []): number {
  let z = calibration.a * logit + calibration.b;
  for (let k = 0; k < calibration.ruleWeights.length; k++) z += calibration.ruleWeights[k]! * (rules[k] ?? 0);
  return threatSigmoid(z);
}
