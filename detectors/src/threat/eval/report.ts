// Text tables of the evaluation: per language, and per held-out source group.
import { threatBrier, threatRatesAt, threatRocAuc, threatTprAtFpr, type ThreatScored } from './metrics.js';

/** Whether a source group is the attack grammar's (train/dataset.ts, threatSourceGroup), not the training file's. */
export function threatIsGrammarGroup(group: string): boolean {
  return group.startsWith('synth:');
}

export interface ThreatReportRow extends ThreatScored {
  lang: string;
  group: string;
}

export interface ThreatLanguageFigures {
  lang: string;
  positives: number;
  negatives: number;
  rocAuc: number;
  tprAtFpr1: number;
  tprAtFpr2: number;
  tprAtFpr5: number;
  /** Rates at the calibrated thresholds 0.5 and 0.8 (a profile's jailbreak_threshold). */
  at05: { tpr: number; fpr: number };
  at08: { tpr: number; fpr: number };
  brier: number;
}

export function threatLanguageFigures(rows: readonly ThreatReportRow[], lang: string): ThreatLanguageFigures {
  const subset = lang === 'all' ? rows : rows.filter((r) => r.lang === lang);
  return {
    lang,
    positives: subset.filter((r) => r.label === 1).length,
    negatives: subset.filter((r) => r.label === 0).length,
    rocAuc: threatRocAuc(subset),
    tprAtFpr1: threatTprAtFpr(subset, 0.01).tpr,
    tprAtFpr2: threatTprAtFpr(subset, 0.02).tpr,
    tprAtFpr5: threatTprAtFpr(subset, 0.05).tpr,
    at05: threatRatesAt(subset, 0.5),
    at08: threatRatesAt(subset, 0.8),
    brier: threatBrier(subset),
  };
}

const f3 = (x: number) => (Number.isNaN(x) ? '  n/a' : x.toFixed(3));

export function formatThreatLanguageTable(figures: readonly ThreatLanguageFigures[]): string {
  const lines = ['lang   pos   neg  ROC-AUC  TPR@FPR1%  TPR@FPR2%  TPR@FPR5%  TPR/FPR@0.5    TPR/FPR@0.8    Brier'];
  for (const f of figures) {
    lines.push(
      `${f.lang.padEnd(4)} ${String(f.positives).padStart(5)} ${String(f.negatives).padStart(5)}  ${f3(f.rocAuc)}    ${f3(f.tprAtFpr1)}      ${f3(f.tprAtFpr2)}      ${f3(f.tprAtFpr5)}     ${f3(f.at05.tpr)}/${f3(f.at05.fpr)}    ${f3(f.at08.tpr)}/${f3(f.at08.fpr)}    ${f3(f.brier)}`,
    );
  }
  return lines.join('\n');
}

/** Per source group: rows, label mix, and the share flagged at 0.5 and 0.8 (TPR of a positive group, FPR of a negative one). */
export function formatThreatGroupTable(rows: readonly ThreatReportRow[]): string {
  const groups = [...new Set(rows.map((r) => r.group))].sort();
  const lines = ['group                                                  rows  label  langs   flagged@0.5  flagged@0.8  mean score'];
  for (const g of groups) {
    const subset = rows.filter((r) => r.group === g);
    const labels = [...new Set(subset.map((r) => r.label))].join('/');
    const langs = [...new Set(subset.map((r) => r.lang))].sort().join('+');
    const at = (t: number) => subset.filter((r) => r.score >= t).length / subset.length;
    const mean = subset.reduce((s, r) => s + r.score, 0) / subset.length;
    lines.push(`${g.slice(0, 54).padEnd(54)} ${String(subset.length).padStart(5)}  ${labels.padEnd(5)}  ${langs.padEnd(6)}  ${f3(at(0.5)).padStart(11)}  ${f3(at(0.8)).padStart(11)}  ${f3(mean).padStart(10)}`);
  }
  return lines.join('\n');
}

/** Per source group, two models side by side: the share flagged at 0.5 (TPR of attack rows, FPR of benign ones). */
export function formatThreatGroupComparison(names: readonly [string, string], a: readonly ThreatReportRow[], b: readonly ThreatReportRow[]): string {
  const groups = [...new Set(a.map((r) => `${r.group}\u0000${r.label}`))].sort();
  const lines = [`group                                                  label   rows  ${names[0].padStart(10)}  ${names[1].padStart(10)}   (share flagged at 0.5)`];
  for (const key of groups) {
    const [group, label] = key.split('\u0000') as [string, string];
    const share = (rows: readonly ThreatReportRow[]) => {
      const subset = rows.filter((r) => r.group === group && String(r.label) === label);
      return subset.filter((r) => r.score >= 0.5).length / subset.length;
    };
    const n = a.filter((r) => r.group === group && String(r.label) === label).length;
    lines.push(`${group.slice(0, 54).padEnd(54)} ${label.padStart(5)}  ${String(n).padStart(5)}  ${f3(share(a)).padStart(10)}  ${f3(share(b)).padStart(10)}`);
  }
  return lines.join('\n');
}
