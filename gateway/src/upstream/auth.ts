/**
 * Upstream authentication per provider (DECISIONS.md, "Provider record" upstream_auth):
 *   passthrough                — the client's Authorization goes upstream unchanged (the default);
 *   bearer                     — `Authorization: Bearer <token>`, the client's is not forwarded;
 *   api_key_header             — `<header>: <key>` (default header `api-key`, vendor_c); no Authorization;
 *   oauth2_client_credentials  — vendor_i: an access token from token_url, cached until shortly before
 *                                it expires, fetched once for all concurrent requests, and fetched again
 *                                once when the upstream answers 401 (the request is then retried once).
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { PalisadeError, type Cache, type StreamsClock, type UpstreamAuth } from '@palisade/core';
import { describeFailure, safeEndpoint } from './network-errors.js';
import type { UpstreamLogger } from './types.js';

export type OAuthClientCredentials = Extract<UpstreamAuth, { type: 'oauth2_client_credentials' }>;

/** What an auth strategy does to the forwarded headers. */
export interface AppliedAuth {
  type: UpstreamAuth['type'];
  /** Lower-case names removed from the forwarded headers before `set` is applied. */
  strip: string[];
  /** Headers to add (lower-case names). */
  set: Record<string, string>;
  /** The OAuth access token used, so a 401 can refresh exactly this one. */
  token?: string;
}

export interface UpstreamAuthenticator {
  apply(auth: UpstreamAuth | undefined, context?: { clientAuthorization?: string | undefined; signal?: AbortSignal | undefined }): Promise<AppliedAuth>;
  /**
   * After an upstream 401 answered to `staleToken`: a fresh token. Every request that saw the same
   * stale token shares one fetch; one that comes after the refresh simply gets the new token.
   */
  refresh(auth: OAuthClientCredentials, staleToken: string, signal?: AbortSignal): Promise<AppliedAuth>;
  /** Forgets the tokens remembered in this process (the shared cache keeps its own until they expire). */
  clear(): void;
}

export interface UpstreamAuthOptions {
  cache: Cache;
  /** Sends token requests (the upstream client's pool, so TLS settings match). */
  dispatcher: Dispatcher;
  clock?: StreamsClock;
  /** One token request's limit (default 10 s). */
  tokenTimeoutMs?: number;
  /** Assumed lifetime when a token answer has neither expires_in nor expires_at (default 5 minutes). */
  defaultTokenLifetimeMs?: number;
  logger?: UpstreamLogger;
}

export const DEFAULT_TOKEN_TIMEOUT_MS = 10_000;
export const DEFAULT_TOKEN_LIFETIME_MS = 5 * 60_000;
/** A token is reused until min(60 s, 10 % of its lifetime) before it expires. */
export const TOKEN_EXPIRY_MARGIN_MS = 60_000;
export const TOKEN_EXPIRY_MARGIN_RATIO = 0.1;
const MAX_TOKEN_ANSWER_BYTES = 1024 * 1024;

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

/** RFC 6749 2.3.1: client id and secret are form-urlencoded, joined by `:`, then base64. */
export function basicCredentials(clientId: string, clientSecret: string): string {
  return `Basic ${Buffer.from(`${formEncode(clientId)}:${formEncode(clientSecret)}`, 'utf8').toString('base64')}`;
}

function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
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

interface CachedToken {
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

/** Rejects with the signal's reason as soon as it aborts; the work itself goes on for other waiters. */
function raceSignal<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason as unknown);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as unknown);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

interface InFlight {
  promise: Promise<string>;
  /** The stale token this fetch replaces (a refresh), or undefined (a plain load). */
  refreshOf: string | undefined;
}

export function createUpstreamAuth(options: UpstreamAuthOptions): UpstreamAuthenticator {
  const { cache, dispatcher, logger } = options;
  const clock = options.clock ?? { now: () => Date.now() };
  const tokenTimeoutMs = options.tokenTimeoutMs ?? DEFAULT_TOKEN_TIMEOUT_MS;
  const defaultLifetimeMs = options.defaultTokenLifetimeMs ?? DEFAULT_TOKEN_LIFETIME_MS;
  /** Tokens already read in this process: the hot path needs no cache round trip. */
  const memo = new Map<string, CachedToken>();
  const inflight = new Map<string, InFlight>();

  async function readCache(key: string): Promise<CachedToken | undefined> {
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
  }

  async function forget(key: string, token: string): Promise<void> {
    if (memo.get(key)?.token === token) memo.delete(key);
    try {
      const stored = parseCached(await cache.get(key));
      if (stored?.token === token) await cache.del(key);
    } catch (error) {
      logger?.warn({ err: error }, 'upstream OAuth token cache unavailable');
    }
  }

  async function store(key: string, token: string, expiresAt: number | undefined): Promise<void> {
    const now = clock.now();
    const usableUntil = tokenUsableUntil(expiresAt ?? now + defaultLifetimeMs, now);
    const ttl = Math.floor(usableUntil - now);
    if (ttl <= 0) return; // already (almost) expired: use it for this request, cache nothing
    const entry: CachedToken = { token, usableUntil };
    memo.set(key, entry);
    try {
      await cache.set(key, JSON.stringify({ access_token: token, usable_until: usableUntil }), ttl);
    } catch (error) {
      logger?.warn({ err: error }, 'upstream OAuth token cache unavailable; token kept in this process only');
    }
  }

  async function fetchToken(auth: OAuthClientCredentials): Promise<{ token: string; expiresAt: number | undefined }> {
    let url: URL;
    try {
      url = new URL(auth.token_url);
    } catch (error) {
      throw new PalisadeError('LLM_REQUEST_FAILED', { message: 'OAuth token_url is not a valid URL', cause: error });
    }
    const endpoint = safeEndpoint(url);
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (auth.scope !== undefined && auth.scope !== '') form.set('scope', auth.scope);
    form.set('client_id', auth.client_id);
    const signal = AbortSignal.timeout(tokenTimeoutMs);
    let status: number;
    let text: string;
    try {
      const answer = await dispatcher.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
          authorization: basicCredentials(auth.client_id, auth.client_secret),
          // vendor_i (GigaChat) requires a request id on token requests; others ignore it.
          rquid: randomUUID(),
        },
        body: form.toString(),
        signal,
        headersTimeout: tokenTimeoutMs + 1000,
        bodyTimeout: tokenTimeoutMs + 1000,
      });
      status = answer.statusCode;
      text = await readLimited(answer.body, MAX_TOKEN_ANSWER_BYTES);
    } catch (error) {
      if (signal.aborted) {
        throw new PalisadeError('LLM_REQUEST_FAILED', { message: `OAuth token endpoint ${endpoint} did not answer within ${tokenTimeoutMs} ms`, cause: error });
      }
      throw new PalisadeError('LLM_REQUEST_FAILED', { message: `OAuth token endpoint ${endpoint} unreachable: ${describeFailure(error)}`, cause: error });
    }
    let parsed: Record<string, unknown> = {};
    try {
      const value = JSON.parse(text) as unknown;
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) parsed = value as Record<string, unknown>;
    } catch {
      // Not JSON: reported below by status, or as an answer without access_token.
    }
    if (status < 200 || status >= 300) {
      const code = typeof parsed.error === 'string' ? parsed.error.slice(0, 100) : undefined;
      throw new PalisadeError('LLM_REQUEST_FAILED', {
        message: `OAuth token endpoint ${endpoint} answered ${status}${code ? ` (${code})` : ''}`,
      });
    }
    const token = parsed.access_token;
    if (typeof token !== 'string' || token === '') {
      throw new PalisadeError('LLM_REQUEST_FAILED', { message: `OAuth token endpoint ${endpoint} answered ${status} without an access_token` });
    }
    logger?.debug({ token_endpoint: endpoint }, 'fetched an upstream OAuth token');
    return { token, expiresAt: tokenExpiresAt(parsed, clock.now()) };
  }

  /** Cached token unless it is `stale`; else one fetch, stored for the next requests. */
  async function load(key: string, auth: OAuthClientCredentials, stale: string | undefined): Promise<string> {
    let cached = await readCache(key);
    if (cached && cached.token !== stale) return cached.token;
    if (stale !== undefined && cached) {
      // Drop the refused token; another replica may have stored a fresh one meanwhile.
      await forget(key, stale);
      cached = await readCache(key);
      if (cached && cached.token !== stale) return cached.token;
    }
    const fresh = await fetchToken(auth);
    await store(key, fresh.token, fresh.expiresAt);
    return fresh.token;
  }

  /** The single-flight gate: one load per key at a time; a refresh of the same stale token joins it. */
  function token(auth: OAuthClientCredentials, stale: string | undefined): Promise<string> {
    const key = oauthCacheKey(auth);
    const current = inflight.get(key);
    if (current && (stale === undefined || current.refreshOf === stale)) return current.promise;
    if (current) {
      // A plain load is running; it may already bring a token other than the stale one.
      return current.promise.then((t) => (t !== stale ? t : token(auth, stale)));
    }
    const promise: Promise<string> = load(key, auth, stale).finally(() => {
      if (inflight.get(key)?.promise === promise) inflight.delete(key);
    });
    promise.catch(() => undefined); // waiters that gave up must not leave an unhandled rejection
    inflight.set(key, { promise, refreshOf: stale });
    return promise;
  }

  const oauthApplied = (t: string): AppliedAuth => ({
    type: 'oauth2_client_credentials',
    strip: ['authorization'],
    set: { authorization: `Bearer ${t}` },
    token: t,
  });

  return {
    async apply(auth, context = {}) {
      const type = auth?.type ?? 'passthrough';
      switch (auth?.type) {
        case undefined:
        case 'passthrough': {
          const value = context.clientAuthorization;
          return { type, strip: ['authorization'], set: value === undefined || value === '' ? {} : { authorization: value } };
        }
        case 'bearer': {
          const value = /^bearer\s/i.test(auth.token) ? auth.token : `Bearer ${auth.token}`;
          return { type, strip: ['authorization'], set: { authorization: value } };
        }
        case 'api_key_header': {
          const header = (auth.header || 'api-key').toLowerCase();
          return { type, strip: ['authorization', header], set: { [header]: auth.key } };
        }
        case 'oauth2_client_credentials':
          return oauthApplied(await raceSignal(token(auth, undefined), context.signal));
      }
    },
    async refresh(auth, staleToken, signal) {
      return oauthApplied(await raceSignal(token(auth, staleToken), signal));
    },
    clear() {
      memo.clear();
    },
  };
}

async function readLimited(body: AsyncIterable<Uint8Array> & { destroy?: (error?: Error) => unknown }, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) {
      body.destroy?.();
      throw new Error(`token answer larger than ${limit} bytes`);
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString('utf8');
}
