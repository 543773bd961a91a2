// The proxy as an OpenID Connect relying party (openid-client): discovery of any issuer, the code flow
// with PKCE, state and nonce, refresh, RP-initiated logout; bearer access tokens verified offline
// against the issuer's JWKS (jose keeps the key set cached and refetches only for an unknown kid).
import * as oidc from 'openid-client';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { LRUCache } from 'lru-cache';

/**
 * How long a verified bearer token is taken from the cache at most: a signature check goes through
 * WebCrypto's thread pool on every call (the proxy's p99 on a bearer call was over its 3 ms target), so
 * a token verified once is trusted again until its own expiry or this, whichever comes first; a key
 * removed from the issuer's JWKS therefore stops opening the API within this time.
 */
export const VERIFIED_TOKEN_TTL_MS = 60_000;
const VERIFIED_TOKENS_MAX = 10_000;
const CLOCK_TOLERANCE_S = 5;

export interface RelyingPartyOptions {
  issuer: string;
  clientId: string;
  clientSecret?: string | undefined;
  redirectUri: string;
  scopes: string;
  audience: string;
  /** Clock for the verified-token cache's expiry checks (tests). */
  now?: () => number;
}

export type TokenSet = oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers;

export interface RelyingParty {
  signInUrl(): Promise<{ url: URL; verifier: string; state: string; nonce: string }>;
  callback(currentUrl: URL, expected: { verifier: string; state: string; nonce: string }): Promise<TokenSet>;
  refresh(refreshToken: string): Promise<TokenSet>;
  signOutUrl(idToken: string | undefined, postLogoutRedirectUri: string): Promise<URL | undefined>;
  verifyBearer(token: string): Promise<Record<string, unknown>>;
}

export function createRelyingParty(options: RelyingPartyOptions): RelyingParty {
  let discovered: Promise<{ config: oidc.Configuration; jwks: ReturnType<typeof createRemoteJWKSet> }> | undefined;
  const insecure = new URL(options.issuer).protocol === 'http:';
  const now = options.now ?? Date.now;
  // Claims of tokens that verified, with the time (ms) after which they must be verified again.
  const verified = new LRUCache<string, { claims: Record<string, unknown>; until: number }>({ max: VERIFIED_TOKENS_MAX });

  /** Discovery on first use, retried on the next call when the IdP was not reachable yet. */
  function provider() {
    discovered ??= (async () => {
      const auth = options.clientSecret ? oidc.ClientSecretPost(options.clientSecret) : oidc.None();
      const config = await oidc.discovery(new URL(options.issuer), options.clientId, options.clientSecret, auth, insecure ? { execute: [oidc.allowInsecureRequests] } : {});
      const jwksUri = config.serverMetadata().jwks_uri;
      if (!jwksUri) throw new Error(`the issuer ${options.issuer} publishes no jwks_uri`);
      return { config, jwks: createRemoteJWKSet(new URL(jwksUri), { cooldownDuration: 30_000, cacheMaxAge: 10 * 60_000 }) };
    })();
    discovered.catch(() => (discovered = undefined));
    return discovered;
  }

  return {
    async signInUrl() {
      const { config } = await provider();
      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: options.redirectUri,
        scope: options.scopes,
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      return { url, verifier, state, nonce };
    },
    async callback(currentUrl: URL, expected: { verifier: string; state: string; nonce: string }) {
      const { config } = await provider();
      return oidc.authorizationCodeGrant(config, currentUrl, { pkceCodeVerifier: expected.verifier, expectedState: expected.state, expectedNonce: expected.nonce, idTokenExpected: true });
    },
    async refresh(refreshToken: string) {
      const { config } = await provider();
      return oidc.refreshTokenGrant(config, refreshToken);
    },
    async signOutUrl(idToken: string | undefined, postLogoutRedirectUri: string): Promise<URL | undefined> {
      const { config } = await provider();
      if (!config.serverMetadata().end_session_endpoint) return undefined;
      return oidc.buildEndSessionUrl(config, { post_logout_redirect_uri: postLogoutRedirectUri, ...(idToken ? { id_token_hint: idToken } : {}) });
    },
    /** The claims of a valid access token for our audience from this issuer; throws otherwise. */
    async verifyBearer(token: string): Promise<Record<string, unknown>> {
      const cached = verified.get(token);
      if (cached !== undefined && now() < cached.until) return cached.claims;
      const { config, jwks } = await provider();
      const { payload, protectedHeader } = await jwtVerify(token, jwks, {
        issuer: config.serverMetadata().issuer,
        audience: options.audience,
        clockTolerance: CLOCK_TOLERANCE_S,
        currentDate: new Date(now()),
      });
      if (!isAccessToken(protectedHeader.typ, payload)) throw new Error('not an access token');
      const claims = payload as Record<string, unknown>;
      const expiresAt = typeof payload.exp === 'number' ? (payload.exp + CLOCK_TOLERANCE_S) * 1000 : Number.POSITIVE_INFINITY;
      verified.set(token, { claims, until: Math.min(now() + VERIFIED_TOKEN_TTL_MS, expiresAt) });
      return claims;
    },
  };
}

/**
 * An ID token of the same issuer can carry the same audience (the client id); it must not open the
 * API. Access tokens say what they are: typ at+jwt (RFC 9068: ours, Okta, Auth0), Keycloak's typ
 * claim Bearer, or a scope (scope / scp: Entra ID, Okta). An ID token has none of these.
 */
export function isAccessToken(typ: string | undefined, payload: Record<string, unknown>): boolean {
  if (payload.typ === 'ID' || payload.nonce !== undefined) return false;
  return typ?.toLowerCase() === 'at+jwt' || payload.typ === 'Bearer' || typeof payload.scope === 'string' || payload.scp !== undefined;
}
