/**
 * Upstream authentication per provider (DECISIONS.md, "Provider record" upstream_auth): one file per
 * kind in auth/ (passthrough, bearer, api_key_header, oauth2_client_credentials); this picks the kind.
 */
import type { UpstreamAuth } from '@palisade/core';
import { apiKeyHeaderAuth } from './auth/api-key-header.js';
import { bearerAuth } from './auth/bearer.js';
import { createOAuthClientCredentials, type OAuthOptions } from './auth/oauth2-client-credentials.js';
import { passthroughAuth } from './auth/passthrough.js';
import type { AppliedAuth, OAuthClientCredentials } from './auth/types.js';

export type { AppliedAuth, OAuthClientCredentials } from './auth/types.js';
export { basicCredentials, DEFAULT_TOKEN_TIMEOUT_MS } from './auth/oauth2-client-credentials.js';
export {
  DEFAULT_TOKEN_LIFETIME_MS,
  oauthCacheKey,
  TOKEN_EXPIRY_MARGIN_MS,
  TOKEN_EXPIRY_MARGIN_RATIO,
  tokenExpiresAt,
  tokenUsableUntil,
} from './auth/oauth-token-cache.js';

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

/** The OAuth kind's settings: the shared token cache, the dispatcher of token requests, their limits. */
export type UpstreamAuthOptions = OAuthOptions;

export function createUpstreamAuth(options: UpstreamAuthOptions): UpstreamAuthenticator {
  const oauth = createOAuthClientCredentials(options);
  return {
    async apply(auth, context = {}) {
      switch (auth?.type) {
        case undefined:
        case 'passthrough':
          return passthroughAuth(context.clientAuthorization);
        case 'bearer':
          return bearerAuth(auth);
        case 'api_key_header':
          return apiKeyHeaderAuth(auth);
        case 'oauth2_client_credentials':
          return oauth.apply(auth, context.signal);
      }
    },
    refresh: (auth, staleToken, signal) => oauth.refresh(auth, staleToken, signal),
    clear: () => oauth.clear(),
  };
}
