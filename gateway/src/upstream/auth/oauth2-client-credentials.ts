// oauth2_client_credentials (vendor_i): an access token from token_url, cached until shortly before
// it expires (oauth-token-cache.ts), fetched once for all concurrent requests, and fetched again once
// when the upstream answers 401 (the request is then retried once).
import { randomUUID } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { PalisadeError, readLimited, vendorI, type Cache, type StreamsClock } from '@palisade/core';
import { describeFailure, safeEndpoint } from '../network-errors.js';
import type { UpstreamLogger } from '../types.js';
import { createTokenCache, DEFAULT_TOKEN_LIFETIME_MS, oauthCacheKey, tokenExpiresAt } from './oauth-token-cache.js';
import type { AppliedAuth, OAuthClientCredentials } from './types.js';

export const DEFAULT_TOKEN_TIMEOUT_MS = 10_000;
const MAX_TOKEN_ANSWER_BYTES = 1024 * 1024;

export interface OAuthOptions {
  cache: Cache;
  /** Sends token requests (the upstream client's pool, so TLS settings match). */
  dispatcher: Dispatcher;
  clock?: StreamsClock | undefined;
  /** One token request's limit (default 10 s). */
  tokenTimeoutMs?: number | undefined;
  /** Assumed lifetime when a token answer has neither expires_in nor expires_at (default 5 minutes). */
  defaultTokenLifetimeMs?: number | undefined;
  logger?: UpstreamLogger | undefined;
}

export interface OAuthAuthenticator {
  apply(auth: OAuthClientCredentials, signal: AbortSignal | undefined): Promise<AppliedAuth>;
  refresh(auth: OAuthClientCredentials, staleToken: string, signal: AbortSignal | undefined): Promise<AppliedAuth>;
  clear(): void;
}

/** RFC 6749 2.3.1: client id and secret are form-urlencoded, joined by `:`, then base64. */
export function basicCredentials(clientId: string, clientSecret: string): string {
  return `Basic ${Buffer.from(`${formEncode(clientId)}:${formEncode(clientSecret)}`, 'utf8').toString('base64')}`;
}

function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
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

export function createOAuthClientCredentials(options: OAuthOptions): OAuthAuthenticator {
  const { dispatcher, logger } = options;
  const clock = options.clock ?? { now: () => Date.now() };
  const tokenTimeoutMs = options.tokenTimeoutMs ?? DEFAULT_TOKEN_TIMEOUT_MS;
  const tokens = createTokenCache({ cache: options.cache, clock, defaultLifetimeMs: options.defaultTokenLifetimeMs ?? DEFAULT_TOKEN_LIFETIME_MS, logger });
  const inflight = new Map<string, InFlight>();

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
          [vendorI.auth.requestIdHeader]: randomUUID(),
        },
        body: form.toString(),
        signal,
        headersTimeout: tokenTimeoutMs + 1000,
        bodyTimeout: tokenTimeoutMs + 1000,
      });
      status = answer.statusCode;
      const bytes = await readLimited(answer.body, MAX_TOKEN_ANSWER_BYTES);
      if (!bytes) throw new Error(`token answer larger than ${MAX_TOKEN_ANSWER_BYTES} bytes`);
      text = bytes.toString('utf8');
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
    let cached = await tokens.read(key);
    if (cached && cached.token !== stale) return cached.token;
    if (stale !== undefined && cached) {
      // Drop the refused token; another replica may have stored a fresh one meanwhile.
      await tokens.forget(key, stale);
      cached = await tokens.read(key);
      if (cached && cached.token !== stale) return cached.token;
    }
    const fresh = await fetchToken(auth);
    await tokens.store(key, fresh.token, fresh.expiresAt);
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

  const applied = (t: string): AppliedAuth => ({
    type: 'oauth2_client_credentials',
    strip: ['authorization'],
    set: { authorization: `Bearer ${t}` },
    token: t,
  });

  return {
    async apply(auth, signal) {
      return applied(await raceSignal(token(auth, undefined), signal));
    },
    async refresh(auth, staleToken, signal) {
      return applied(await raceSignal(token(auth, staleToken), signal));
    },
    clear() {
      tokens.clear();
    },
  };
}

