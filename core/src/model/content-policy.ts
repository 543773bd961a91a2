// Content policy: keyword/regex block- and allowlists and language restrictions (DECISIONS.md record).
// Regexes are RE2 and are compiled (and rejected with a 400) by the content-policy service, not here.
import { z } from 'zod';
import { Description, LanguageCode, Name, TenantId, recordMeta, updateShape, withInput } from './common.js';

export const CONTENT_POLICY_TYPES = ['blocklist', 'allowlist', 'language'] as const;
export const ContentPolicyType = z.enum(CONTENT_POLICY_TYPES);
export type ContentPolicyType = z.infer<typeof ContentPolicyType>;

export const RULE_KINDS = ['keyword', 'regex'] as const;
export const RuleKind = z.enum(RULE_KINDS);
export type RuleKind = z.infer<typeof RuleKind>;

/** request/response/both; the evaluate call's `input`/`output` are accepted as aliases. */
export const POLICY_SCOPES = ['request', 'response', 'both'] as const;
export const PolicyScope = z.enum(POLICY_SCOPES);
export type PolicyScope = z.infer<typeof PolicyScope>;
export const POLICY_SCOPE_ALIASES: Readonly<Record<string, PolicyScope>> = { input: 'request', output: 'response' };

/** Strictest first: when several policies fire, block beats flag beats trust_pii. */
export const POLICY_ACTIONS = ['block', 'flag', 'trust_pii'] as const;
export const PolicyAction = z.enum(POLICY_ACTIONS);
export type PolicyAction = z.infer<typeof PolicyAction>;
export const POLICY_ACTION_STRICTNESS: Readonly<Record<PolicyAction, number>> = { block: 3, flag: 2, trust_pii: 1 };

export const CONTENT_POLICY_STATUSES = ['DRAFT', 'ACTIVE'] as const;
export const ContentPolicyStatus = z.enum(CONTENT_POLICY_STATUSES);
export type ContentPolicyStatus = z.infer<typeof ContentPolicyStatus>;

/** keyword: exact substring; regex: RE2 syntax (may embed `(?i)`). */
export const PolicyRule = z.object({
  kind: RuleKind,
  pattern: z.string().min(1).max(4096),
});
export type PolicyRule = z.infer<typeof PolicyRule>;

/** The writable fields of a content policy (create body and CRD spec). */
export const ContentPolicySpec = z.object({
  name: Name,
  description: Description.default(''),
  type: ContentPolicyType,
  rules: z.array(PolicyRule).max(1000).default([]),
  /** For type language: the allowed languages. */
  languages: z.array(LanguageCode).default([]),
  scope: PolicyScope.default('request'),
  case_sensitive: z.boolean().default(false),
  /** Higher is evaluated first. */
  priority: z.number().int().min(0).max(1000).default(100),
  action: PolicyAction.default('block'),
  tenant_id: TenantId.optional(),
});
export type ContentPolicySpec = z.infer<typeof ContentPolicySpec>;

/** Maps scope aliases and lower-cases enum spellings and language codes. */
export function normaliseContentPolicyInput(body: Record<string, unknown>): Record<string, unknown> {
  if (typeof body.scope === 'string') {
    const scope = body.scope.toLowerCase();
    body.scope = POLICY_SCOPE_ALIASES[scope] ?? scope;
  }
  for (const key of ['type', 'action'] as const) {
    if (typeof body[key] === 'string') body[key] = (body[key] as string).toLowerCase();
  }
  if (Array.isArray(body.languages)) {
    body.languages = body.languages.map((l) => (typeof l === 'string' ? l.toLowerCase() : l));
  }
  return body;
}

/** The create rules that span fields (a list needs rules, a language policy languages); zod superRefine. */
export function checkContentPolicy(value: Pick<ContentPolicySpec, 'type' | 'rules' | 'languages'>, ctx: z.RefinementCtx) {
  if (value.type === 'language' && value.languages.length === 0) {
    ctx.addIssue({ code: 'custom', path: ['languages'], message: 'a language policy needs at least one language' });
  }
  if (value.type !== 'language' && value.rules.length === 0) {
    ctx.addIssue({ code: 'custom', path: ['rules'], message: `a ${value.type} policy needs at least one rule` });
  }
}

export const ContentPolicyCreate = withInput(
  normaliseContentPolicyInput,
  ContentPolicySpec.superRefine(checkContentPolicy),
);
export type ContentPolicyCreate = z.output<typeof ContentPolicyCreate>;

/** Partial update; the merged record is re-checked with ContentPolicyCreate (type vs rules/languages). */
export const ContentPolicyUpdate = withInput(
  normaliseContentPolicyInput,
  z.object(updateShape(ContentPolicySpec.shape)),
);
export type ContentPolicyUpdate = z.output<typeof ContentPolicyUpdate>;

/** The stored content policy. */
export const ContentPolicy = ContentPolicySpec.extend({
  ...recordMeta,
  status: ContentPolicyStatus.default('DRAFT'),
});
export type ContentPolicy = z.infer<typeof ContentPolicy>;
