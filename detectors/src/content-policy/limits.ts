// Size limits of the content policy service (README.md, "Limits"). They bound memory and time per
// request: RE2 keeps matching linear in the text, these keep the factor small. One object, so that the
// package root can re-export it without clashing with other detectors' limits.
import { COMPONENT_PORTS } from '@palisade/core';

export const CONTENT_POLICY_LIMITS = Object.freeze({
  /** Longest text evaluated, in UTF-16 code units (1 MiB of ASCII). Longer: 400. */
  maxTextLength: 1_048_576,
  /** Longest keyword or regex source; the same bound as core's PolicyRule. */
  maxPatternLength: 4096,
  /** Sum of the pattern lengths of one policy (1,000 rules at the maximum would be 4 MiB of regex). */
  maxPolicyPatternChars: 262_144,
  /** Rules in one policy; the same bound as core's ContentPolicySpec. */
  maxRulesPerPolicy: 1000,
  /** Policies in one evaluate call. */
  maxPolicies: 1000,
  /** Rules over all policies of one evaluate call. */
  maxTotalRules: 10_000,
  /** Occurrences listed per rule and in all; a rule with more still fires, the rest is not listed. */
  maxMatchesPerRule: 100,
  maxMatches: 1000,
  /** HTTP body limit: a maximal text plus a large policy list. Larger bodies get 413. */
  bodyLimitBytes: 8 * 1024 * 1024,
});

/** The port of the spec's component table. */
export const CONTENT_POLICY_PORT = COMPONENT_PORTS['content-policy'];

/** Compiled policy sets one evaluator keeps (least recently used dropped first). */
export const DEFAULT_COMPILED_POLICY_CACHE_SIZE = 64;
