// The content-policy tester: a text run through one policy by the content policy engine itself (the
// in-process evaluator the gateway uses, RE2), so the console shows exactly what the gateway would do.
import { ContentPolicyTestRequest, type ContentPolicy, type ContentPolicyTestResult } from '@palisade/core';
import { createContentPolicyEvaluator, type ContentPolicyEvaluator, type EvaluateResponse } from '@palisade/detectors';
import { assertPolicyPatterns } from './operations.js';

export interface ContentPolicyTesterDeps {
  /** Finds a stored policy of the tenant (404 otherwise). */
  load(id: string, tenantId: string): Promise<ContentPolicy>;
  evaluator?: ContentPolicyEvaluator;
}

type TestedPolicy = Pick<ContentPolicy, 'type' | 'rules' | 'languages' | 'case_sensitive' | 'action'>;

export function createContentPolicyTester(deps: ContentPolicyTesterDeps) {
  const evaluator = deps.evaluator ?? createContentPolicyEvaluator();

  // Scope 'both' so the policy applies to the text whichever side it came from; a trust_pii policy is
  // run as a flag one, because the engine lists a trust_pii policy's occurrences without their rule.
  const evaluate = (policy: TestedPolicy, text: string, as: Partial<Pick<TestedPolicy, 'type' | 'languages'>> = {}): Promise<EvaluateResponse> =>
    evaluator.detect({
      text,
      scope: 'request',
      policies: [
        {
          id: 'tested',
          type: as.type ?? policy.type,
          rules: policy.rules,
          languages: as.languages ?? policy.languages,
          case_sensitive: policy.case_sensitive,
          action: policy.action === 'trust_pii' ? 'flag' : policy.action,
          scope: 'both',
          // A stored draft is tested too (the engine skips an explicit DRAFT).
          status: 'ACTIVE',
        },
      ],
    });

  return {
    async test(body: unknown, tenantId: string): Promise<ContentPolicyTestResult> {
      const input = ContentPolicyTestRequest.parse(body ?? {});
      const policy: TestedPolicy = input.id === undefined ? input : await deps.load(input.id, tenantId);
      assertPolicyPatterns(policy);
      const answer = await evaluate(policy, input.text);
      // An allowlist lists nothing when it holds (no policy fired): the same rules as a blocklist show
      // which of them matched, which is what kept it quiet.
      const listed = policy.type === 'allowlist' && policy.rules.length > 0 ? await evaluate(policy, input.text, { type: 'blocklist', languages: [] }) : answer;
      const fired = answer.fired_policies[0];
      return {
        type: policy.type,
        fired: fired !== undefined,
        action: fired ? policy.action : null,
        reason: fired?.reason ?? null,
        matches: listed.matches.map((m) => ({ rule_index: m.rule_index, kind: m.kind, pattern: policy.rules[m.rule_index]?.pattern ?? '', start: m.start, end: m.end, text: m.text })),
        matches_truncated: listed.matches_truncated,
        detected_language: answer.detected_language,
      };
    },
  };
}
export type ContentPolicyTester = ReturnType<typeof createContentPolicyTester>;

