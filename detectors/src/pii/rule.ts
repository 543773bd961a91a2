// The one shape every PII type shares: a rule is data plus two pure functions. `scan` finds candidate
// spans with a confidence; `mask` gives the spec's SANITIZE mask of one value. detect.ts runs the rules,
// resolves overlapping candidates and builds the entities.
import type { PiiType } from '@palisade/core';
import type { DigitIndex } from './text/digit-groups.js';
import type { CtxFlags } from './text/keywords.js';

/** A span of the scanned text (UTF-16 offsets, end exclusive) that a rule believes is its type. */
export interface PiiCandidate {
  start: number;
  end: number;
  /** 0..1; detect() drops candidates under its minimum score (0.5 by default). */
  score: number;
}

/** What a rule scans: the text and lazily built indexes shared by the rules of one call. */
export interface PiiScanInput {
  readonly text: string;
  /** Lower-cased primary language subtag ("ru", "en") or "auto". */
  readonly language: string;
  /** The request's system prompt, for SYSTEM_PROMPT_LEAK. */
  readonly systemPrompt: string | undefined;
  /** The digit groups of the text (built on first use). */
  digitGroups(): DigitIndex;
  /** Context-word flags of the words just before `start` (memoised). */
  contextBefore(start: number): CtxFlags;
}

export interface PiiRule {
  readonly type: PiiType;
  scan(input: PiiScanInput): PiiCandidate[];
  /** The SANITIZE mask of a value this rule found (README.md lists them). */
  mask(value: string): string;
}
