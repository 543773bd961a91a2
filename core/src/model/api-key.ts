// Gateway credentials (AUTH_ENABLED=true): API keys shown once at creation, stored as a SHA-256 hash.
import { z } from 'zod';
import { IsoDateTime, Name, TenantId, Uuid } from './common.js';
import { secret } from './secret.js';

/** Requests per minute; the gateway default (GATEWAY_RATE_LIMIT_PER_MINUTE) applies when absent. */
export const RateLimitPerMinute = z.number().int().min(1).max(1_000_000);

export const ApiKeyCreate = z.object({
  name: Name,
  /** The caller's tenant when absent; another tenant needs super-admin. */
  tenant_id: TenantId.optional(),
  rate_limit_per_minute: RateLimitPerMinute.optional(),
});
export type ApiKeyCreate = z.infer<typeof ApiKeyCreate>;

/** Rename, change or clear (null) the rate limit, revoke; the key itself never changes. */
export const ApiKeyUpdate = z.object({
  name: Name.optional(),
  rate_limit_per_minute: RateLimitPerMinute.nullable().optional(),
  revoked: z.boolean().optional(),
});
export type ApiKeyUpdate = z.infer<typeof ApiKeyUpdate>;

/** The stored key. */
export const ApiKey = z.object({
  id: Uuid,
  name: Name,
  tenant_id: TenantId,
  /** The first characters of the key, shown to tell keys apart. */
  key_prefix: z.string().min(1).max(32),
  /** Lower-case hex SHA-256 of the whole key. */
  key_hash: z.string().regex(/^[0-9a-f]{64}$/, 'must be a hex SHA-256'),
  rate_limit_per_minute: RateLimitPerMinute.nullable().default(null),
  created_at: IsoDateTime,
  last_used_at: IsoDateTime.nullable().default(null),
  revoked: z.boolean().default(false),
});
export type ApiKey = z.infer<typeof ApiKey>;

/** What the API returns: never the hash. */
export const ApiKeyPublic = ApiKey.omit({ key_hash: true });
export type ApiKeyPublic = z.infer<typeof ApiKeyPublic>;

/** The reply to a create: the only time the clear key is shown. */
// Marked secret although it is answered once in clear on purpose: the create answer is never logged.
export const ApiKeyCreated = ApiKeyPublic.extend({ key: secret(z.string().min(1)) });
export type ApiKeyCreated = z.infer<typeof ApiKeyCreated>;
