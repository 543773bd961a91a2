// Provider: an LLM backend, how requests are routed to it, and how its JSON is read (field mapping).
import { z } from 'zod';
import { MAPPING_PRESET_NAMES, PROVIDER_TYPES } from '../mapping/presets.js';
import {
  Description,
  HeaderName,
  HttpUrl,
  LifecycleStatus,
  Name,
  TenantId,
  IsoDateTime,
  immutable,
  isHost,
  recordMeta,
  updateShape,
} from './common.js';
import { secret, secretKeysOf } from './secret.js';

// The vendor lists live in mapping/ (it must not import model/); re-exported for one import site.
export { MAPPING_PRESET_NAMES, PROVIDER_TYPES };

export const ProviderType = z.enum(PROVIDER_TYPES);
export type ProviderType = z.infer<typeof ProviderType>;

export const MATCH_TYPES = ['url', 'host', 'header'] as const;
export const MatchType = z.enum(MATCH_TYPES);
export type MatchType = z.infer<typeof MatchType>;

export const HEALTH_STATUSES = ['HEALTHY', 'UNHEALTHY', 'UNKNOWN'] as const;
export const HealthStatus = z.enum(HEALTH_STATUSES);
export type HealthStatus = z.infer<typeof HealthStatus>;

export const MappingPreset = z.enum(MAPPING_PRESET_NAMES, {
  error: (iss) => `unknown mapping preset ${JSON.stringify(iss.input)}`,
});
export type MappingPreset = z.infer<typeof MappingPreset>;

/** `$.field`, `$.a[0].b`, `$.a[*].b`, `$.a[?(@.k=='v')].b`; the spec's short form without `$.` is accepted too. */
export const JsonPathString = z
  .string()
  .min(1)
  .max(1000)
  .regex(/^(\$(?=$|[.[])|[A-Za-z_[])/, 'must be a JSONPath such as $.messages[*].content');

/** Custom field mapping: only prompt_path is required; it overrides same-named preset paths. */
export const MappingCustom = z.object({
  prompt_path: JsonPathString,
  system_prompt_path: JsonPathString.optional(),
  user_messages_path: JsonPathString.optional(),
  model_path: JsonPathString.optional(),
  response_path: JsonPathString.optional(),
});
export type MappingCustom = z.infer<typeof MappingCustom>;

const Secret = secret(z.string().min(1).max(8192));

/** How the gateway authenticates upstream; secrets are encrypted at rest and never returned in clear. */
export const UpstreamAuth = z.discriminatedUnion('type', [
  // The client's Authorization header goes upstream unchanged.
  z.object({ type: z.literal('passthrough') }),
  z.object({ type: z.literal('bearer'), token: Secret }),
  // vendor_c style: `api-key: <key>` instead of a bearer header.
  z.object({ type: z.literal('api_key_header'), header: HeaderName.default('api-key'), key: Secret }),
  // vendor_i style: tokens fetched from token_url and cached until shortly before expiry.
  z.object({
    type: z.literal('oauth2_client_credentials'),
    token_url: HttpUrl,
    client_id: z.string().min(1).max(1024),
    client_secret: Secret,
    scope: z.string().max(1024).optional(),
  }),
]);
export type UpstreamAuth = z.infer<typeof UpstreamAuth>;
export const UPSTREAM_AUTH_TYPES = ['passthrough', 'bearer', 'api_key_header', 'oauth2_client_credentials'] as const;
/** Fields of upstream_auth that hold secrets (token, key, client_secret): read from the model's marks. */
export const UPSTREAM_AUTH_SECRET_FIELDS: readonly string[] = secretKeysOf(UpstreamAuth);

/** Scheme and host (and port) only: the endpoint path belongs in target_path. */
export const TargetBaseUrl = HttpUrl.refine(
  (v) => !URL.canParse(v) || new URL(v).pathname === '/',
  'must not contain an endpoint path; put it in target_path',
)
  .refine((v) => !URL.canParse(v) || (!new URL(v).search && !new URL(v).hash), 'must not contain a query or fragment')
  .refine(
    (v) => !URL.canParse(v) || (!new URL(v).username && !new URL(v).password),
    'must not contain credentials; use upstream_auth',
  );

export const TargetPath = z
  .string()
  .max(2048)
  .startsWith('/', "must start with '/'")
  .regex(/^\S*$/, 'must not contain whitespace');

/** The writable fields of a provider (create body and CRD spec). */
export const ProviderSpec = z.object({
  name: Name,
  provider_type: ProviderType,
  match_type: MatchType,
  /** URL pattern, host pattern, or the expected header value, by match_type. */
  match_value: z.string().min(1).max(2048),
  header_name: HeaderName.default('X-LLM-Provider'),
  /** Higher wins when several providers match. */
  priority: z.number().int().min(1).max(1000).default(100),
  target_base_url: TargetBaseUrl,
  target_path: TargetPath.default('/v1/chat/completions'),
  request_timeout_ms: z.number().int().min(1000).max(600000).default(30000),
  description: Description.default(''),
  mapping_preset: MappingPreset.nullable().optional(),
  mapping_custom: MappingCustom.nullable().optional(),
  upstream_auth: UpstreamAuth.default({ type: 'passthrough' }),
  tenant_id: TenantId.optional(),
});
export type ProviderSpec = z.infer<typeof ProviderSpec>;

/** Fields fixed at creation; an update that carries them is rejected naming the field. */
export const PROVIDER_IMMUTABLE_FIELDS = ['provider_type', 'match_type'] as const;

/** Why a match_value does not fit its match_type, or null (see DECISIONS.md, URL and host patterns). */
export function matchValueIssue(matchType: MatchType, value: string): string | null {
  switch (matchType) {
    case 'url':
      // glob on the path (`/v1/*`, `/v1/**`), or an RE2 expression on the whole URI (`^…`)
      return /^[/^*]/.test(value) ? null : "a url pattern must start with '/' (glob) or '^' (regular expression)";
    case 'host': {
      const host = value.replace(/^\*\./, '').replace(/:\d{1,5}$/, '');
      if (isHost(host) && !host.includes('*')) return null;
      return 'a host pattern must be a host name or *.domain, with an optional port';
    }
    case 'header':
      return /^[^\r\n\0]+$/.test(value) ? null : 'a header value must not contain line breaks';
  }
}

type MappingFields = { mapping_preset?: string | null | undefined; mapping_custom?: unknown };

function checkProvider(value: ProviderSpec, ctx: z.RefinementCtx) {
  if (!value.mapping_preset && !value.mapping_custom) {
    ctx.addIssue({
      code: 'custom',
      path: ['mapping_preset'],
      message: 'one of mapping_preset or mapping_custom is required',
    });
  }
  const issue = matchValueIssue(value.match_type, value.match_value);
  if (issue) ctx.addIssue({ code: 'custom', path: ['match_value'], message: issue });
}

/** Create body: required fields, defaults filled, mapping and match_value checked. */
export const ProviderCreate = ProviderSpec.superRefine(checkProvider);
export type ProviderCreate = z.output<typeof ProviderCreate>;

const { provider_type: _pt, match_type: _mt, ...mutableShape } = ProviderSpec.shape;

/**
 * Partial update. mapping_custom and upstream_auth are replaced as a whole. Rules that need the stored
 * record (a mapping left, match_value against match_type) are checked by parsing the merged record
 * with ProviderCreate.
 */
export const ProviderUpdate = z
  .object({
    ...updateShape(mutableShape),
    mapping_custom: MappingCustom.nullable().optional(),
    upstream_auth: UpstreamAuth.optional(),
    provider_type: immutable('provider_type'),
    match_type: immutable('match_type'),
  })
  .superRefine((value: MappingFields, ctx) => {
    if (value.mapping_preset === null && value.mapping_custom === null) {
      ctx.addIssue({
        code: 'custom',
        path: ['mapping_preset'],
        message: 'one of mapping_preset or mapping_custom is required',
      });
    }
  });
export type ProviderUpdate = z.output<typeof ProviderUpdate>;

/** The stored provider. */
export const Provider = ProviderSpec.extend({
  ...recordMeta,
  status: LifecycleStatus.default('DRAFT'),
  health_status: HealthStatus.default('UNKNOWN'),
  health_latency_ms: z.number().int().min(0).nullable().default(null),
  health_error_message: z.string().nullable().default(null),
  health_checked_at: IsoDateTime.nullable().default(null),
});
export type Provider = z.infer<typeof Provider>;

/**
 * The answer of a check now (POST /providers/{id}/health-check): the health it stored on the provider,
 * when, after how many attempts (1 + the retries it needed), and who asked (the scheduler's own checks
 * say 'scheduler').
 */
export const ProviderHealthCheck = z.object({
  provider_id: recordMeta.id,
  health_status: HealthStatus.exclude(['UNKNOWN']),
  health_latency_ms: z.number().int().min(0),
  health_error_message: z.string().nullable(),
  health_checked_at: IsoDateTime,
  attempts: z.number().int().min(1),
  performed_by: z.string().min(1).max(255),
});
export type ProviderHealthCheck = z.infer<typeof ProviderHealthCheck>;
