// The semantics of the spec's "Content policy" section over a compiled set: which policies fire, the
// strictest action, the occurrences and the trusted spans. README.md, "Semantics", states each rule.
import { POLICY_ACTION_STRICTNESS, type PolicyAction } from '@palisade/core';
import type { CompiledPolicy, CompiledPolicySet, CompiledRule } from './compile.js';
import type { ContentLanguageDetection, ContentLanguageDetector } from './language.js';
import { CONTENT_POLICY_LIMITS } from './limits.js';
import { findOccurrences } from './rule-regex.js';
import type { EvaluateResponse, EvaluateScope, FiredContentPolicy } from './schemas.js';

export interface EvaluatePolicySetInput {
  text: string;
  scope: EvaluateScope;
  /** A language hint (primary subtag, lower case). */
  language?: string | undefined;
}

export interface EvaluatePolicySetDependencies {
  detectLanguage: ContentLanguageDetector;
}

/** The answer when nothing applies: the spec's acceptance check (empty policy list → blocked false). */
export function emptyEvaluateResponse(): EvaluateResponse {
  return { blocked: false, action: null, matches: [], trusted_spans: [], fired_policies: [], detected_language: null, language_candidates: [], matches_truncated: false };
}

function fired(policy: CompiledPolicy, reason: FiredContentPolicy['reason']): FiredContentPolicy {
  return { policy_id: policy.id, name: policy.name, type: policy.type, action: policy.action, priority: policy.priority, reason };
}

/**
 * Evaluates every applicable policy (all of them, so that the answer lists every reason and every
 * trusted span) in evaluation order; the strictest action of the fired ones is the answer's action.
 */
export function evaluatePolicySet(compiled: CompiledPolicySet, input: EvaluatePolicySetInput, deps: EvaluatePolicySetDependencies): EvaluateResponse {
  const program = compiled[input.scope];
  if (program.policies.length === 0) return emptyEvaluateResponse();
  // Lone surrogates become U+FFFD (same length): RE2 sees the characters the offsets count.
  // (String.prototype.toWellFormed is in Node 20; TypeScript's ES2023 lib does not declare it.)
  const text = (input.text as string & { toWellFormed(): string }).toWellFormed();

  const hitsByPolicy = new Map<CompiledPolicy, CompiledRule[]>();
  for (const index of program.patterns.match(text)) {
    const rule = program.rules[index]!;
    const list = hitsByPolicy.get(rule.policy);
    if (list) list.push(rule);
    else hitsByPolicy.set(rule.policy, [rule]);
  }

  let language: ContentLanguageDetection | undefined;
  const detect = () => (language ??= deps.detectLanguage(text, input.language));

  const response = emptyEvaluateResponse();
  let budget: number = CONTENT_POLICY_LIMITS.maxMatches;
  let strictest: PolicyAction | null = null;

  const listOccurrences = (policy: CompiledPolicy, rules: readonly CompiledRule[]) => {
    for (const rule of rules) {
      const { occurrences, more } = findOccurrences(rule.regex, text, Math.min(budget, CONTENT_POLICY_LIMITS.maxMatchesPerRule));
      if (more) response.matches_truncated = true;
      budget -= occurrences.length;
      for (const { start, end } of occurrences) {
        const slice = text.slice(start, end);
        if (policy.action === 'trust_pii') response.trusted_spans.push({ policy_id: policy.id, start, end, text: slice });
        else response.matches.push({ policy_id: policy.id, rule_index: rule.ruleIndex, kind: rule.kind, start, end, text: slice });
      }
    }
  };

  for (const policy of program.policies) {
    const hits = hitsByPolicy.get(policy);
    let reason: FiredContentPolicy['reason'] | undefined;
    switch (policy.type) {
      case 'blocklist':
        if (hits) reason = 'rule_match';
        break;
      case 'allowlist':
        if (!hits) reason = 'no_allowlist_match';
        break;
      case 'language': {
        const detection = detect();
        // Only a decided detection with no allowed candidate fires: uncertainty never blocks.
        if (detection.determined && !detection.candidates.some((c) => policy.languages.has(c))) reason = 'language_not_allowed';
        break;
      }
    }
    if (reason === undefined) continue;
    response.fired_policies.push(fired(policy, reason));
    if (strictest === null || POLICY_ACTION_STRICTNESS[policy.action] > POLICY_ACTION_STRICTNESS[strictest]) strictest = policy.action;
    if (hits) listOccurrences(policy, hits);
  }

  response.action = strictest;
  response.blocked = strictest === 'block';
  response.detected_language = language?.language ?? null;
  response.language_candidates = language?.candidates ?? [];
  response.trusted_spans.sort((a, b) => a.start - b.start || a.end - b.end);
  return response;
}
