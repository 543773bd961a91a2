// The content-policy tester of the Admin API (POST /content-policies/test): a text run through one
// policy — a stored one by id, or the draft the console's form holds — by the content policy engine.
import { z } from 'zod';
import { CONTENT_POLICY_TYPES, ContentPolicySpec, PolicyAction, RuleKind, checkContentPolicy, normaliseContentPolicyInput } from './content-policy.js';
import { withInput } from './common.js';

/** Longest text the tester takes (UTF-16 code units); the gateway's own limit is far larger. */
export const CONTENT_POLICY_TEST_MAX_TEXT = 65_536;

/**
 * `text` and either `id` (a stored policy of the tenant) or the policy's fields as the create body has
 * them (other create fields such as name are ignored). The scope is not applied: the text is tested
 * against the rules whichever side it would come from.
 */
export const ContentPolicyTestRequest = withInput(
  normaliseContentPolicyInput,
  z
    .object({
      text: z.string().max(CONTENT_POLICY_TEST_MAX_TEXT),
      id: z.string().min(1).max(255).optional(),
      type: ContentPolicySpec.shape.type.default('blocklist'),
      rules: ContentPolicySpec.shape.rules,
      languages: ContentPolicySpec.shape.languages,
      case_sensitive: ContentPolicySpec.shape.case_sensitive,
      action: ContentPolicySpec.shape.action,
    })
    .superRefine((value, ctx) => {
      if (value.id === undefined) checkContentPolicy(value, ctx);
    }),
);
export type ContentPolicyTestRequest = z.output<typeof ContentPolicyTestRequest>;

/** One occurrence of a rule in the text; offsets are UTF-16, end exclusive. */
export const ContentPolicyTestMatch = z.object({
  rule_index: z.number().int().min(0),
  kind: RuleKind,
  pattern: z.string(),
  start: z.number().int().min(0),
  end: z.number().int().min(0),
  text: z.string(),
});
export type ContentPolicyTestMatch = z.infer<typeof ContentPolicyTestMatch>;

export const CONTENT_POLICY_TEST_REASONS = ['rule_match', 'no_allowlist_match', 'language_not_allowed'] as const;

export const ContentPolicyTestResult = z.object({
  type: z.enum(CONTENT_POLICY_TYPES),
  /** True when the policy fires on the text. */
  fired: z.boolean(),
  /** The policy's action when it fires; null when it does not. */
  action: PolicyAction.nullable(),
  reason: z.enum(CONTENT_POLICY_TEST_REASONS).nullable(),
  /** Every rule occurrence (an allowlist's too: they are what keeps it from firing). */
  matches: z.array(ContentPolicyTestMatch),
  /** True when occurrences beyond the engine's listing limits were left out. */
  matches_truncated: z.boolean(),
  /** A language policy's detected language, when the text was long enough to tell. */
  detected_language: z.string().nullable(),
});
export type ContentPolicyTestResult = z.infer<typeof ContentPolicyTestResult>;
