// Runs the rules over a text, resolves overlapping candidates and builds the entities. Synchronous and
// pure: the in-process detector, the HTTP service, the eval and the bench all call this function.
import { INPUT_PII_TYPES, PII_TYPES, type PiiType } from '@palisade/core';
import type { PiiCandidate, PiiRule } from './rule.js';
import { PII_RULES, PII_SPECIFICITY } from './rules.js';
import { createScanInput } from './scan-input.js';
import { createPiiTrustMatcher, type PiiTrustMark } from './trusted.js';

/** `input` scans requests (input PII types); `output` scans answers (every type). */
export type PiiDirection = 'input' | 'output';

/** Candidates scoring less are dropped (Presidio's default threshold is in the same place). */
export const DEFAULT_PII_MIN_SCORE = 0.5;

export interface PiiDetectOptions {
  /** Types to report; default: all types of the direction. Output-only types never apply to input. */
  types?: readonly PiiType[] | undefined;
  direction?: PiiDirection | undefined;
  /** BCP 47 tag or "auto"; picks the country of national phone numbers. */
  language?: string | undefined;
  /** The request's system prompt, for SYSTEM_PROMPT_LEAK. */
  systemPrompt?: string | undefined;
  /** Marks of a trust_pii content policy (trusted.ts). */
  trusted?: readonly PiiTrustMark[] | undefined;
  minScore?: number | undefined;
  /** The rules to run (tests); default PII_RULES. */
  rules?: readonly PiiRule[] | undefined;
  /** Checked between rules, so an abandoned call on a huge text stops early. */
  signal?: AbortSignal | undefined;
}

export interface PiiDetectedEntity {
  type: PiiType;
  /** UTF-16 offsets into the text (JavaScript string indexes), end exclusive. */
  start: number;
  end: number;
  value: string;
  score: number;
  /** The spec's SANITIZE mask of the value. */
  masked: string;
  /** Present (true) when a trust_pii content policy covers the entity. */
  trusted?: true;
}

export interface TypedCandidate extends PiiCandidate {
  type: PiiType;
}

const OUTPUT_TYPES = new Set<PiiType>(PII_TYPES);
const INPUT_TYPES = new Set<PiiType>(INPUT_PII_TYPES);

/** The types reported for a direction and an optional requested list. */
export function piiTypesFor(direction: PiiDirection = 'input', types?: readonly PiiType[]): Set<PiiType> {
  const allowed = direction === 'output' ? OUTPUT_TYPES : INPUT_TYPES;
  return new Set(types ? types.filter((t) => allowed.has(t)) : allowed);
}

const RANK = new Map<PiiType, number>(PII_SPECIFICITY.map((type, i) => [type, i]));

/**
 * Keeps non-overlapping candidates: the longer span wins, then the higher score, then the more
 * specific type. Accepted spans are never shorter than a later candidate, so an overlap always covers
 * the candidate's first or last character: two lookups in an occupancy map decide it.
 */
export function resolveOverlaps(candidates: readonly TypedCandidate[], textLength: number): TypedCandidate[] {
  const rank = (type: PiiType) => RANK.get(type) ?? RANK.size;
  const sorted = [...candidates].sort(
    (a, b) => b.end - b.start - (a.end - a.start) || b.score - a.score || rank(a.type) - rank(b.type) || a.start - b.start,
  );
  const taken = new Uint8Array(textLength);
  const kept: TypedCandidate[] = [];
  for (const candidate of sorted) {
    if (candidate.end <= candidate.start) continue;
    if (taken[candidate.start] || taken[candidate.end - 1]) continue;
    taken.fill(1, candidate.start, candidate.end);
    kept.push(candidate);
  }
  return kept.sort((a, b) => a.start - b.start);
}

const round = (score: number) => Math.round(score * 100) / 100;

export function detectPii(text: string, options: PiiDetectOptions = {}): PiiDetectedEntity[] {
  const wanted = piiTypesFor(options.direction, options.types);
  if (wanted.size === 0 || text.length === 0) return [];
  const minScore = options.minScore ?? DEFAULT_PII_MIN_SCORE;
  const rules = options.rules ?? PII_RULES;
  const input = createScanInput(text, { language: options.language, systemPrompt: options.systemPrompt });

  // Every structural rule runs even when its type is not wanted: a span belongs to its most specific
  // reading, so the password of an unwanted DATABASE_URL is not reported as an e-mail. A prompt leak
  // is another dimension (it contains other PII), so it only runs when asked for.
  const candidates: TypedCandidate[] = [];
  for (const rule of rules) {
    if (rule.type === 'SYSTEM_PROMPT_LEAK' && !wanted.has(rule.type)) continue;
    options.signal?.throwIfAborted();
    const type = rule.type;
    for (const { start, end, score } of rule.scan(input)) {
      if (score >= minScore) candidates.push({ start, end, score, type });
    }
  }

  const trusted = createPiiTrustMatcher(text, options.trusted);
  const byType = new Map(rules.map((rule) => [rule.type, rule]));
  const entities: PiiDetectedEntity[] = [];
  for (const candidate of resolveOverlaps(candidates, text.length)) {
    if (!wanted.has(candidate.type)) continue;
    const value = text.slice(candidate.start, candidate.end);
    const entity: PiiDetectedEntity = {
      type: candidate.type,
      start: candidate.start,
      end: candidate.end,
      value,
      score: round(candidate.score),
      masked: byType.get(candidate.type)!.mask(value),
    };
    if (trusted.isTrusted(entity)) entity.trusted = true;
    entities.push(entity);
  }
  return entities;
}

/** True when an entity should drive a decision: at least one is not trusted. */
export const hasUntrustedPii = (entities: readonly PiiDetectedEntity[]): boolean => entities.some((e) => !e.trusted);
