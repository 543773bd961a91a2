// A policy list compiled for evaluation: policies in evaluation order per scope, one RE2 regex per
// rule (to list occurrences) and one multi-pattern set per scope (to learn which rules fire in one
// pass). Built once per configuration revision and cached by the evaluator.
import type RE2 from 're2';
import { PalisadeError, type ContentPolicyType, type FieldIssue, type PolicyAction, type PolicyScope, type RuleKind } from '@palisade/core';
import { createPatternSet, type PatternSet, type PatternSetOptions } from './pattern-set.js';
import { RulePatternError, compileRuleRegex, ruleSource } from './rule-regex.js';
import type { EvaluatePolicy, EvaluateScope } from './schemas.js';
import { policyPatternCharsIssue } from './validate.js';

export interface CompiledRule {
  policy: CompiledPolicy;
  /** Index in the policy's `rules`. */
  ruleIndex: number;
  kind: RuleKind;
  pattern: string;
  /** The RE2 source (keyword escaped, `(?i)` when the policy ignores case). */
  source: string;
  /** Flags `gu`; shared by every evaluation of this set (see findOccurrences). */
  regex: RE2;
}

export interface CompiledPolicy {
  id: string;
  name: string | null;
  type: ContentPolicyType;
  action: PolicyAction;
  priority: number;
  scope: PolicyScope;
  /** Position in the request's list: breaks priority ties. */
  order: number;
  /** Allowed languages of a language policy. */
  languages: ReadonlySet<string>;
  rules: readonly CompiledRule[];
}

/** What applies to one side of the exchange. */
export interface ScopeProgram {
  /** ACTIVE policies of this scope (or `both`), priority descending, ties in request order. */
  policies: readonly CompiledPolicy[];
  /** The rules of `policies`; `patterns` answers with indices into this list. */
  rules: readonly CompiledRule[];
  patterns: PatternSet;
  hasLanguagePolicies: boolean;
}

export interface CompiledPolicySet {
  request: ScopeProgram;
  response: ScopeProgram;
  /** Policies and rules in the list, including the ones not ACTIVE. */
  policyCount: number;
  ruleCount: number;
}

export interface CompilePolicySetOptions {
  patternSet?: PatternSetOptions;
}

function scopeProgram(scope: EvaluateScope, policies: readonly CompiledPolicy[], options: CompilePolicySetOptions): ScopeProgram {
  const applicable = policies.filter((p) => p.scope === 'both' || p.scope === scope);
  const rules = applicable.flatMap((p) => p.rules);
  return {
    policies: applicable,
    rules,
    patterns: createPatternSet(rules.map((r) => r.source), rules.map((r) => r.regex), options.patternSet),
    hasLanguagePolicies: applicable.some((p) => p.type === 'language'),
  };
}

/**
 * Compiles a validated policy list (EvaluatePolicyListSchema's output). Policies not ACTIVE are
 * checked but not applied. A rule that cannot be compiled is a VALIDATION_ERROR naming every bad
 * rule as `policies.<i>.rules.<j>.pattern` — create-time validation keeps this from happening with
 * stored policies.
 */
export function compilePolicySet(policies: readonly EvaluatePolicy[], options: CompilePolicySetOptions = {}): CompiledPolicySet {
  const issues: FieldIssue[] = [];
  const compiled: CompiledPolicy[] = [];
  let ruleCount = 0;

  policies.forEach((policy, i) => {
    const chars = policyPatternCharsIssue(policy.rules);
    if (chars) issues.push({ path: `policies.${i}.${chars.path}`, message: chars.message });
    const target: CompiledPolicy = {
      id: policy.id,
      name: policy.name ?? null,
      type: policy.type,
      action: policy.action,
      priority: policy.priority,
      scope: policy.scope,
      order: i,
      languages: new Set(policy.languages),
      rules: [],
    };
    const rules: CompiledRule[] = [];
    policy.rules.forEach((rule, j) => {
      ruleCount++;
      try {
        const regex = compileRuleRegex(rule, policy.case_sensitive);
        rules.push({ policy: target, ruleIndex: j, kind: rule.kind, pattern: rule.pattern, source: ruleSource(rule, policy.case_sensitive), regex });
      } catch (error) {
        if (!(error instanceof RulePatternError)) throw error;
        issues.push({ path: `policies.${i}.rules.${j}.pattern`, message: error.message });
      }
    });
    target.rules = rules;
    if (policy.status === 'ACTIVE') compiled.push(target);
  });

  if (issues.length > 0) {
    const first = issues[0]!;
    throw new PalisadeError('VALIDATION_ERROR', { message: `Invalid ${first.path}: ${first.message}`, details: issues });
  }
  // Stable: equal priorities keep the request's order.
  compiled.sort((a, b) => b.priority - a.priority || a.order - b.order);
  return {
    request: scopeProgram('request', compiled, options),
    response: scopeProgram('response', compiled, options),
    policyCount: policies.length,
    ruleCount,
  };
}
