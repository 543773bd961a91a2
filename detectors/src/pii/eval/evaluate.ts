// Precision, recall and F1 per PII type of a detector over a labeled corpus. A prediction is correct
// when its type and span equal a gold entity's; for SYSTEM_PROMPT_LEAK, whose edges are fuzzy by
// nature (a copy may run on by a word the prompt also has), when the spans overlap by half (IoU ≥ 0.5).
import { PII_TYPES, type PiiType } from '@palisade/core';
import { detectPii, type PiiDetectedEntity } from '../detect.js';
import type { GoldEntity, PiiEvalSample } from './corpus.js';

/** The goal of the issue, for every structured type. */
export const PII_EVAL_GOAL = { precision: 0.98, recall: 0.99 } as const;

export interface PiiTypeScore {
  type: PiiType;
  support: number;
  tp: number;
  fp: number;
  fn: number;
  precision: number;
  recall: number;
  f1: number;
}

export interface PiiEvalError {
  kind: 'false positive' | 'false negative';
  type: PiiType;
  sample: number;
  value: string;
  context: string;
}

export interface PiiEvalReport {
  samples: number;
  types: PiiTypeScore[];
  errors: PiiEvalError[];
}

export type SampleDetector = (sample: PiiEvalSample) => ReadonlyArray<Pick<PiiDetectedEntity, 'type' | 'start' | 'end'>>;

export const detectSample: SampleDetector = (sample) =>
  detectPii(sample.text, { direction: 'output', language: sample.language, systemPrompt: sample.systemPrompt });

function matches(gold: GoldEntity, predicted: Pick<PiiDetectedEntity, 'type' | 'start' | 'end'>): boolean {
  if (gold.type !== predicted.type) return false;
  if (gold.type !== 'SYSTEM_PROMPT_LEAK') return gold.start === predicted.start && gold.end === predicted.end;
  const overlap = Math.min(gold.end, predicted.end) - Math.max(gold.start, predicted.start);
  const union = Math.max(gold.end, predicted.end) - Math.min(gold.start, predicted.start);
  return overlap > 0 && overlap / union >= 0.5;
}

const ratio = (a: number, b: number) => (b === 0 ? 1 : a / b);

export function evaluatePii(samples: readonly PiiEvalSample[], detect: SampleDetector = detectSample, maxErrors = 200): PiiEvalReport {
  const counts = new Map<PiiType, { tp: number; fp: number; fn: number; support: number }>(
    PII_TYPES.map((type) => [type, { tp: 0, fp: 0, fn: 0, support: 0 }]),
  );
  const errors: PiiEvalError[] = [];
  const note = (kind: PiiEvalError['kind'], type: PiiType, sample: PiiEvalSample, start: number, end: number) => {
    if (errors.length >= maxErrors) return;
    errors.push({ kind, type, sample: sample.id, value: sample.text.slice(start, end), context: sample.text.slice(Math.max(0, start - 40), end + 40) });
  };
  for (const sample of samples) {
    const predicted = [...detect(sample)];
    const used = new Set<number>();
    for (const gold of sample.entities) {
      const c = counts.get(gold.type)!;
      c.support++;
      const hit = predicted.findIndex((p, i) => !used.has(i) && matches(gold, p));
      if (hit === -1) {
        c.fn++;
        note('false negative', gold.type, sample, gold.start, gold.end);
      } else {
        used.add(hit);
        c.tp++;
      }
    }
    predicted.forEach((p, i) => {
      if (used.has(i)) return;
      counts.get(p.type)!.fp++;
      note('false positive', p.type, sample, p.start, p.end);
    });
  }
  const types = PII_TYPES.map((type) => {
    const { tp, fp, fn, support } = counts.get(type)!;
    const precision = ratio(tp, tp + fp);
    const recall = ratio(tp, tp + fn);
    const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
    return { type, support, tp, fp, fn, precision, recall, f1 };
  });
  return { samples: samples.length, types, errors };
}

/** Types whose figures are under the goal (types absent from the corpus count as under it). */
export function belowGoal(report: PiiEvalReport): PiiTypeScore[] {
  return report.types.filter((t) => t.support === 0 || t.precision < PII_EVAL_GOAL.precision || t.recall < PII_EVAL_GOAL.recall);
}

export function formatEvalTable(report: PiiEvalReport): string {
  const pct = (x: number) => x.toFixed(4);
  const rows = report.types.map((t) =>
    [t.type.padEnd(20), String(t.support).padStart(7), String(t.tp).padStart(6), String(t.fp).padStart(5), String(t.fn).padStart(5), pct(t.precision).padStart(9), pct(t.recall).padStart(8), pct(t.f1).padStart(8)].join(' '),
  );
  const header = ['type'.padEnd(20), 'support'.padStart(7), 'tp'.padStart(6), 'fp'.padStart(5), 'fn'.padStart(5), 'precision'.padStart(9), 'recall'.padStart(8), 'f1'.padStart(8)].join(' ');
  return [`${report.samples} samples`, header, ...rows].join('\n');
}
