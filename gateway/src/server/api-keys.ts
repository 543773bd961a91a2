// Gateway credentials when AUTH_ENABLED=true (spec "Authentication / Gateway"; DECISIONS.md "Gateway
// credentials"): `Authorization: Bearer <key>`, looked up by its SHA-256 in the snapshot, then a
// sliding-window limit per key in the shared cache (Redis, or in-process without it).
import { createHash } from 'node:crypto';
import { PalisadeError, type BundleApiKey, type Cache, type RateLimitResult } from '@palisade/core';
import type { GatewaySnapshot } from '../config/snapshot.js';

export const RATE_LIMIT_WINDOW_MS = 60_000;

/** RFC 6750 b64token: what a bearer credential may be made of. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

export interface Authenticated {
  key: BundleApiKey;
  rate: RateLimitResult;
  /** X-RateLimit-* for every answer to this request (spec, response headers). */
  headers: Record<string, string>;
}

export interface ApiKeyAuthOptions {
  cache: Cache;
  /** GATEWAY_RATE_LIMIT_PER_MINUTE: the limit of keys that name none. */
  defaultLimitPerMinute: number;
  now?: () => number;
}

export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

export function rateLimitHeaders(rate: RateLimitResult): Record<string, string> {
  return {
    'x-ratelimit-limit': String(rate.limit),
    'x-ratelimit-remaining': String(rate.remaining),
    'x-ratelimit-reset': String(Math.ceil(rate.resetAtMs / 1000)),
  };
}

const refused = (message: string) => new PalisadeError('AUTHENTICATION_FAILED', { message });

export function createApiKeyAuth(options: ApiKeyAuthOptions) {
  const now = options.now ?? Date.now;
  return {
    /**
     * The key of the request, counted against its limit. Throws AUTHENTICATION_FAILED (missing,
     * malformed, unknown, or another tenant's key) or RATE_LIMIT_EXCEEDED with retry_after.
     */
    async authenticate(authorization: string | undefined, snapshot: GatewaySnapshot, tenantHeader: string | undefined): Promise<Authenticated> {
      if (!authorization) throw refused('Authorization header is required');
      const bearer = BEARER.exec(authorization.trim());
      if (!bearer) throw refused('Authorization must be "Bearer <api key>"');
      const key = snapshot.apiKey(hashApiKey(bearer[1]!));
      if (!key) throw refused('Unknown or revoked API key');
      if (tenantHeader !== undefined && tenantHeader !== key.tenant_id) throw refused(`The API key does not belong to tenant ${tenantHeader}`);
      const limit = key.rate_limit_per_minute ?? options.defaultLimitPerMinute;
      const rate = await options.cache.slidingWindow(`gateway:rate:${key.id}`, limit, RATE_LIMIT_WINDOW_MS, now());
      const headers = rateLimitHeaders(rate);
      if (!rate.allowed) {
        const retryAfter = Math.max(1, Math.ceil(rate.retryAfterMs / 1000));
        throw new PalisadeError('RATE_LIMIT_EXCEEDED', {
          message: `Rate limit of ${limit} requests per minute exceeded`,
          retryAfter,
          headers,
        });
      }
      return { key, rate, headers };
    },
  };
}
export type ApiKeyAuth = ReturnType<typeof createApiKeyAuth>;
