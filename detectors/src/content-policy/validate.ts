// Create-time checks of a content policy's patterns (DECISIONS.md: a pattern RE2 cannot compile is a
// 400 at create time). The admin API and the registry call this with the create/update body and add
// the issues to their 400; the evaluator runs the same checks on a set it has not seen, so a stored
// policy never fails at request time.
import type { FieldIssue, PolicyRule } from '@palisade/core';
import { CONTENT_POLICY_LIMITS } from './limits.js';
import { RulePatternError, compileRuleRegex } from './rule-regex.js';

/** The fields the check reads; a create body, an update merged with the stored record, or a record. */
export interface ContentPolicyPatternsInput {
  rules?: readonly PolicyRule[] | undefined;
  case_sensitive?: boolean | undefined;
}

/** The issue about the sum of pattern lengths, or undefined. Path `rules`. */
export function policyPatternCharsIssue(rules: readonly PolicyRule[]): FieldIssue | undefined {
  const total = rules.reduce((n, r) => n + r.pattern.length, 0);
  if (total <= CONTENT_POLICY_LIMITS.maxPolicyPatternChars) return undefined;
  return {
    path: 'rules',
    message: `the patterns of one policy may hold at most ${CONTENT_POLICY_LIMITS.maxPolicyPatternChars} characters in all (got ${total})`,
  };
}

/**
 * Problems with the rules' patterns, each at `rules.<i>.pattern` (or `rules` for the whole list):
 * RE2 compile errors (with RE2's reason), `\C`, and the size limits of README.md. Empty when usable.
 * The regex is compiled with the policy's case sensitivity, exactly as it will run.
 */
export function checkContentPolicyPatterns(policy: ContentPolicyPatternsInput): FieldIssue[] {
  const rules = policy.rules ?? [];
  const issues: FieldIssue[] = [];
  if (rules.length > CONTENT_POLICY_LIMITS.maxRulesPerPolicy) {
    issues.push({ path: 'rules', message: `at most ${CONTENT_POLICY_LIMITS.maxRulesPerPolicy} rules per policy (got ${rules.length})` });
  }
  const chars = policyPatternCharsIssue(rules);
  if (chars) issues.push(chars);
  const caseSensitive = policy.case_sensitive ?? false;
  rules.forEach((rule, i) => {
    try {
      compileRuleRegex(rule, caseSensitive);
    } catch (error) {
      if (!(error instanceof RulePatternError)) throw error;
      issues.push({ path: `rules.${i}.pattern`, message: error.message });
    }
  });
  return issues;
}
