// The evaluate contract (spec: "Canonical detector request" — text, scope, language, policies; output
// `blocked`; the rest is ours, README.md). Policy items are core's content policy record, picked from
// core's schemas so that the fields, enums and bounds have one definition.
import { z } from 'zod';
import {
  checkContentPolicy,
  ContentPolicy,
  ContentPolicySpec,
  ContentPolicyStatus,
  ContentPolicyType,
  POLICY_SCOPE_ALIASES,
  PolicyAction,
  RuleKind,
  normaliseContentPolicyInput,
} from '@palisade/core';
import { CONTENT_POLICY_LIMITS } from './limits.js';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * One policy of an evaluate call: the stored record's shape. Meta fields are optional (name is used in
 * answers when present; created_at, managed_by… are ignored), the id may be any non-empty string, and
 * a missing status means ACTIVE: the caller passed the policy to have it applied, while an explicit
 * DRAFT is skipped.
 */
export const EvaluatePolicyObjectSchema = ContentPolicySpec.pick({
  type: true,
  rules: true,
  languages: true,
  scope: true,
  case_sensitive: true,
  priority: true,
  action: true,
})
  .extend(ContentPolicy.pick({ name: true, tenant_id: true }).partial().shape)
  .extend({
    id: z.string().min(1).max(255),
    status: ContentPolicyStatus.default('ACTIVE'),
  });

/** With core's input normalisation: scope aliases (input/output), lower-cased enums and languages. */
export const EvaluatePolicySchema = z.preprocess(
  (v) => (isObject(v) ? normaliseContentPolicyInput({ ...v }) : v),
  EvaluatePolicyObjectSchema.superRefine(checkContentPolicy),
);
export type EvaluatePolicy = z.output<typeof EvaluatePolicyObjectSchema>;
/** What a caller may pass for a policy (the stored record is one). */
export type EvaluatePolicyInput = z.input<typeof EvaluatePolicyObjectSchema> & Record<string, unknown>;

export const EvaluatePolicyListSchema = z
  .array(EvaluatePolicySchema)
  .max(CONTENT_POLICY_LIMITS.maxPolicies)
  .superRefine((policies, ctx) => {
    const total = policies.reduce((n, p) => n + p.rules.length, 0);
    if (total > CONTENT_POLICY_LIMITS.maxTotalRules) {
      ctx.addIssue({ code: 'custom', path: [], message: `at most ${CONTENT_POLICY_LIMITS.maxTotalRules} rules in all (got ${total})` });
    }
  });

/** The side of the exchange a text comes from: the evaluate call says input/output (request/response accepted). */
export const EVALUATE_SCOPES = ['request', 'response'] as const;
export type EvaluateScope = (typeof EVALUATE_SCOPES)[number];
export const EvaluateScopeSchema = z.preprocess(
  (v) => (typeof v === 'string' ? (POLICY_SCOPE_ALIASES[v.toLowerCase()] ?? v.toLowerCase()) : v),
  z.enum(EVALUATE_SCOPES, { error: 'scope must be "input" or "output" ("request" and "response" are accepted too)' }),
);

/** A language hint (`en`, `ru-RU`): its primary subtag, lower case; `auto`, `und` or empty mean none. */
export const LanguageHintSchema = z
  .string()
  .max(64)
  .nullish()
  .transform((v) => {
    const primary = v?.trim().toLowerCase().split(/[-_]/)[0];
    return primary && primary !== 'auto' && primary !== 'und' ? primary : undefined;
  });

/**
 * The request without its policies, which are validated when the set is compiled (once per revision):
 * the per-call cost then does not grow with the number of rules.
 */
export const EvaluateEnvelopeSchema = z.object({
  text: z.string().max(CONTENT_POLICY_LIMITS.maxTextLength),
  scope: EvaluateScopeSchema,
  language: LanguageHintSchema,
  /**
   * Optional: a revision of the configuration the policies come from (the bundle revision). With it
   * the compiled set is found by revision and policy ids instead of hashing the policies.
   */
  revision: z.string().min(1).max(256).optional(),
  policies: z.array(z.unknown()).max(CONTENT_POLICY_LIMITS.maxPolicies),
});

/** The whole request, policies included (for clients and documentation). */
export const EvaluateRequestSchema = EvaluateEnvelopeSchema.extend({ policies: EvaluatePolicyListSchema });

/** The request as a caller writes it. */
export interface EvaluateRequest {
  text: string;
  /** `input` (the prompt) or `output` (the LLM's answer); `request`/`response` accepted. */
  scope: 'input' | 'output' | 'request' | 'response';
  /** A hint only: see README.md, "Language". */
  language?: string | null | undefined;
  revision?: string | undefined;
  policies: readonly EvaluatePolicyInput[];
}

export const ContentPolicyMatchSchema = z.object({
  policy_id: z.string(),
  /** Index of the rule in the policy's `rules`. */
  rule_index: z.number().int().min(0),
  kind: RuleKind,
  /** UTF-16 offsets into the evaluated text; end exclusive. */
  start: z.number().int().min(0),
  end: z.number().int().min(0),
  text: z.string(),
});
export type ContentPolicyMatch = z.infer<typeof ContentPolicyMatchSchema>;

/** A span whose PII the PII detector treats as trusted (a trust_pii policy matched it). */
export const ContentPolicyTrustedSpanSchema = ContentPolicyMatchSchema.pick({ policy_id: true, start: true, end: true, text: true });
export type ContentPolicyTrustedSpan = z.infer<typeof ContentPolicyTrustedSpanSchema>;

export const CONTENT_POLICY_FIRE_REASONS = ['rule_match', 'no_allowlist_match', 'language_not_allowed'] as const;
export const FiredContentPolicySchema = z.object({
  policy_id: z.string(),
  name: z.string().nullable(),
  type: ContentPolicyType,
  action: PolicyAction,
  priority: z.number().int(),
  reason: z.enum(CONTENT_POLICY_FIRE_REASONS),
});
export type FiredContentPolicy = z.infer<typeof FiredContentPolicySchema>;

export const EvaluateResponseSchema = z.object({
  /** True when a policy with action block fired. */
  blocked: z.boolean(),
  /** The strictest action among the fired policies; null when none fired. */
  action: PolicyAction.nullable(),
  /** Rule occurrences of the fired blocklist policies, in evaluation order. */
  matches: z.array(ContentPolicyMatchSchema),
  /** Occurrences of fired trust_pii policies, by start; returned even when the text is blocked. */
  trusted_spans: z.array(ContentPolicyTrustedSpanSchema),
  /** Fired policies in evaluation order (priority descending, then request order). */
  fired_policies: z.array(FiredContentPolicySchema),
  /**
   * When a language policy was evaluated and the text was long enough: the best guess (ISO 639-1, or
   * ISO 639-3 where there is none); else null.
   */
  detected_language: z.string().nullable(),
  /** Every language the text may be in (near-ties, parts of a mixed text); a language policy fires only when none is allowed. */
  language_candidates: z.array(z.string()),
  /** True when occurrences beyond the listing limits were left out of matches/trusted_spans. */
  matches_truncated: z.boolean(),
});
export type EvaluateResponse = z.infer<typeof EvaluateResponseSchema>;
