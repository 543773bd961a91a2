// The OAuth tokens' cache and expiry: a token is kept in the shared cache (and remembered in this
// process) until shortly before it expires; the key never holds the client secret.
import { createHash } from 'node:crypto';
import type { Cache, StreamsClock } from '@palisade/core';
import type { UpstreamLogger } from '../types.js';
import type { OAuthClientCredentials } from './types.js';

/** Assumed lifetime when a token answer has neither expires_in nor expires_at. */
export const DEFAULT_TOKEN_LIFETIME_MS = 5 * 60_000;
/** A token is reused until min(60 s, 10 % of its lifetime) before it expires. */
export const TOKEN_EXPIRY_MARGIN_MS = 60_000;
export const TOKEN_EXPIRY_MARGIN_RATIO = 0.1;

/**
 * Cache key of a token: a hash of token_url, client_id and scope. The secret is never part of a key
 * (a rotated secret keeps using the cached token until it expires or is refused).
 */
export function oauthCacheKey(auth: Pick<OAuthClientCredentials, 'token_url' | 'client_id' | 'scope'>): string {
  const digest = createHash('sha256')
    .update(`${auth.token_url}\n${auth.client_id}\n${auth.scope ?? ''}`)
    .digest('hex');
  return `upstream-oauth:${digest}`;
}

function numeric(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

/** Epoch values at or above this are milliseconds (1e11 s is the year 5138; 1e11 ms is 1973). */
const MS_EPOCH_THRESHOLD = 1e11;

/**
 * When a token answer says the token expires (epoch ms): `expires_in` seconds from now wins (no clock
 * skew); else `expires_at`, in milliseconds or seconds since the epoch (detected by size).
 */
export function tokenExpiresAt(answer: Record<string, unknown>, nowMs: number): number | undefined {
  const expiresIn = numeric(answer.expires_in);
  if (expiresIn !== undefined && expiresIn > 0) return nowMs + expiresIn * 1000;
  const expiresAt = numeric(answer.expires_at);
  if (expiresAt !== undefined && expiresAt > 0) return expiresAt >= MS_EPOCH_THRESHOLD ? expiresAt : expiresAt * 1000;
  return undefined;
}

/** Until when a token is reused: its expiry less min(60 s, 10 % of its remaining lifetime). */
export function tokenUsableUntil(expiresAtMs: number, nowMs: number): number {
  const lifetime = expiresAtMs - nowMs;
  return expiresAtMs - Math.min(TOKEN_EXPIRY_MARGIN_MS, Math.max(0, lifetime) * TOKEN_EXPIRY_MARGIN_RATIO);
}

export interface CachedToken {
  token: string;
  usableUntil: number;
}

function parseCached(value: string | null): CachedToken | undefined {
  if (value === null) return undefined;
  try {
    const parsed = JSON.parse(value) as { access_token?: unknown; usable_until?: unknown };
    if (typeof parsed.access_token === 'string' && typeof parsed.usable_until === 'number') {
      return { token: parsed.access_token, usableUntil: parsed.usable_until };
    }
  } catch {
    // A foreign or corrupt value counts as a miss and is overwritten.
  }
  return undefined;
}

export interface TokenCache {
  /** A token still usable now, or undefined. */
  read(key: string): Promise<CachedToken | undefined>;
  /** Drops `token` (refused upstream) unless another one replaced it meanwhile. */
  forget(key: string, token: string): Promise<void>;
  store(key: string, token: string, expiresAt: number | undefined): Promise<void>;
  /** Forgets the tokens remembered in this process (the shared cache keeps its own until they expire). */
  clear(): void;
}

export function createTokenCache(options: { cache: Cache; clock: StreamsClock; defaultLifetimeMs: number; logger?: UpstreamLogger | undefined }): TokenCache {
  const { cache, clock, defaultLifetimeMs, logger } = options;
  /** Tokens already read in this process: the hot path needs no cache round trip. */
  const memo = new Map<string, CachedToken>();
  return {
    async read(key) {
      const now = clock.now();
      const local = memo.get(key);
      if (local && local.usableUntil > now) return local;
      memo.delete(key);
      let stored: CachedToken | undefined;
      try {
        stored = parseCached(await cache.get(key));
      } catch (error) {
        logger?.warn({ err: error }, 'upstream OAuth token cache unavailable; fetching a token');
        return undefined;
      }
      if (!stored || stored.usableUntil <= now) return undefined;
      memo.set(key, stored);
      return stored;
    },
    async forget(key, token) {
      if (memo.get(key)?.token === token) memo.delete(key);
      try {
        const stored = parseCached(await cache.get(key));
        if (stored?.token === token) await cache.del(key);
      } catch (error) {
        logger?.warn({ err: error }, 'upstream OAuth token cache unavailable');
      }
    },
    async store(key, token, expiresAt) {
      const now = clock.now();
      const usableUntil = tokenUsableUntil(expiresAt ?? now + defaultLifetimeMs, now);
      const ttl = Math.floor(usableUntil - now);
      if (ttl <= 0) return; // already (almost) expired: use it for this request, cache nothing
      memo.set(key, { token, usableUntil });
      try {
        await cache.set(key, JSON.stringify({ access_token: token, usable_until: usableUntil }), ttl);
      } catch (error) {
        logger?.warn({ err: error }, 'upstream OAuth token cache unavailable; token kept in this process only');
      }
    },
    clear() {
      memo.clear();
    },
  };
}
