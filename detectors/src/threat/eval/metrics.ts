// Ranking and calibration figures of scored rows: ROC-AUC, TPR at a false-positive-rate budget, rates
// at a fixed threshold, and the Brier score.

export interface ThreatScored {
  score: number;
  label: 0 | 1;
}

/** ROC-AUC by the rank-sum (Mann-Whitney) formula; ties count one half. NaN without both classes. */
export function threatRocAuc(rows: readonly ThreatScored[]): number {
  const sorted = [...rows].sort((a, b) => a.score - b.score);
  const positives = rows.filter((r) => r.label === 1).length;
  const negatives = rows.length - positives;
  if (positives === 0 || negatives === 0) return Number.NaN;
  let rankSum = 0;
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1]!.score === sorted[i]!.score) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) if (sorted[k]!.label === 1) rankSum += rank;
    i = j + 1;
  }
  return (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}

export interface ThreatOperatingPoint {
  /** Scores strictly above this are flagged. */
  threshold: number;
  tpr: number;
  fpr: number;
}

/**
 * The best true-positive rate whose false-positive rate stays within `maxFpr`: the threshold is the
 * (k+1)-th highest negative score, k = ⌊maxFpr · N₋⌋, and a row is flagged when strictly above it.
 */
export function threatTprAtFpr(rows: readonly ThreatScored[], maxFpr: number): ThreatOperatingPoint {
  const negatives = rows.filter((r) => r.label === 0).map((r) => r.score).sort((a, b) => b - a);
  const positives = rows.filter((r) => r.label === 1).map((r) => r.score);
  if (negatives.length === 0 || positives.length === 0) return { threshold: Number.NaN, tpr: Number.NaN, fpr: Number.NaN };
  const allowed = Math.floor(maxFpr * negatives.length);
  const threshold = negatives[allowed] ?? Number.NEGATIVE_INFINITY;
  return {
    threshold,
    tpr: positives.filter((s) => s > threshold).length / positives.length,
    fpr: negatives.filter((s) => s > threshold).length / negatives.length,
  };
}

/** Rates when flagging scores at or above `threshold` (how a profile's jailbreak_threshold acts). */
export function threatRatesAt(rows: readonly ThreatScored[], threshold: number): { tpr: number; fpr: number } {
  const positives = rows.filter((r) => r.label === 1);
  const negatives = rows.filter((r) => r.label === 0);
  return {
    tpr: positives.length ? positives.filter((r) => r.score >= threshold).length / positives.length : Number.NaN,
    fpr: negatives.length ? negatives.filter((r) => r.score >= threshold).length / negatives.length : Number.NaN,
  };
}

/** Mean squared error of the probabilities: calibration and sharpness together. */
export function threatBrier(rows: readonly ThreatScored[]): number {
  return rows.reduce((s, r) => s + (r.score - r.label) ** 2, 0) / Math.max(1, rows.length);
}
