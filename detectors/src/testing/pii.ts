// Helpers of the PII tests: what the whole pipeline reports for a text, by type.
import type { PiiType } from '@palisade/core';
import { detectPii, type PiiDetectOptions } from '../pii/detect.js';
import type { PiiRule } from '../pii/rule.js';
import { createScanInput } from '../pii/scan-input.js';

/** Values of the entities of `type` that detectPii reports (direction output: every type). */
export function found(text: string, type: PiiType, options: PiiDetectOptions = {}): string[] {
  return detectPii(text, { direction: 'output', ...options })
    .filter((e) => e.type === type)
    .map((e) => e.value);
}

/** Values a single rule reports at or above the default threshold. */
export function ruleFinds(rule: PiiRule, text: string, language = 'auto'): string[] {
  return rule
    .scan(createScanInput(text, { language }))
    .filter((c) => c.score >= 0.5)
    .map((c) => text.slice(c.start, c.end));
}
