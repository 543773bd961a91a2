// vendor_i OAuth 2.0 client-credentials token issuer. Accepts the GigaChat form (Basic auth +
// `scope=`) and the RFC 6749 form (grant_type=client_credentials, credentials in the body).
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { vendorI } from '@palisade/core/vendors';

export interface OAuthClient {
  clientId: string;
  clientSecret: string;
}

export interface OAuthOptions {
  /** Accepted clients (default one: mock-client / mock-secret). */
  clients?: OAuthClient[];
  /** Token lifetime in ms (default 30 minutes, as GigaChat). */
  tokenTtlMs?: number;
}

export interface IssuedToken {
  accessToken: string;
  expiresAt: number;
  clientId: string;
  scope: string;
}

export interface OAuthStore {
  /** Tokens issued since creation or the last resetCount(). */
  readonly issuedCount: number;
  issue(clientId: string, scope: string): IssuedToken;
  /** True for a token this store issued that has not expired. */
  verify(accessToken: string): boolean;
  authenticate(clientId: string, clientSecret: string): boolean;
  readonly tokenTtlMs: number;
  resetCount(): void;
  /** Makes every issued token invalid (tests of re-authentication). */
  revokeAll(): void;
}

export const DEFAULT_OAUTH_CLIENT: OAuthClient = { clientId: 'mock-client', clientSecret: 'mock-secret' };
export const DEFAULT_SCOPE = vendorI.auth.scope;

export function createOAuthStore(options: OAuthOptions, now: () => number): OAuthStore {
  const clients = options.clients ?? [DEFAULT_OAUTH_CLIENT];
  const ttl = options.tokenTtlMs ?? 30 * 60_000;
  const tokens = new Map<string, IssuedToken>();
  let issued = 0;
  return {
    get issuedCount() {
      return issued;
    },
    tokenTtlMs: ttl,
    issue(clientId, scope) {
      const token: IssuedToken = {
        accessToken: `mock-at-${randomBytes(18).toString('base64url')}`,
        expiresAt: now() + ttl,
        clientId,
        scope,
      };
      tokens.set(token.accessToken, token);
      issued += 1;
      return token;
    },
    verify(accessToken) {
      const token = tokens.get(accessToken);
      if (!token) return false;
      if (token.expiresAt <= now()) {
        tokens.delete(accessToken); // keeps the map from growing across long benchmark runs
        return false;
      }
      return true;
    },
    authenticate(clientId, clientSecret) {
      return clients.some((c) => c.clientId === clientId && c.clientSecret === clientSecret);
    },
    resetCount() {
      issued = 0;
    },
    revokeAll() {
      tokens.clear();
    },
  };
}

export interface TokenRequest {
  clientId: string;
  clientSecret: string;
  scope: string;
  grantType: string | undefined;
}

/**
 * Reads client credentials from a token request: Basic auth wins (RFC 6749 2.3.1: id and secret
 * are form-urlencoded before base64), else client_id/client_secret form fields.
 */
export function readTokenRequest(headers: IncomingHttpHeaders, form: Record<string, string>): TokenRequest | undefined {
  const auth = headers.authorization;
  let clientId = form.client_id;
  let clientSecret = form.client_secret;
  if (typeof auth === 'string' && /^basic\s+/i.test(auth)) {
    const decoded = Buffer.from(auth.replace(/^basic\s+/i, '').trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return undefined;
    clientId = safeDecode(decoded.slice(0, colon));
    clientSecret = safeDecode(decoded.slice(colon + 1));
  }
  if (clientId === undefined || clientSecret === undefined) return undefined;
  return { clientId, clientSecret, scope: form.scope ?? DEFAULT_SCOPE, grantType: form.grant_type };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** `Authorization: Bearer <token>` value, if any. */
export function bearerToken(headers: IncomingHttpHeaders): string | undefined {
  const auth = headers.authorization;
  if (typeof auth !== 'string') return undefined;
  const m = /^bearer\s+(\S+)\s*$/i.exec(auth);
  return m?.[1];
}
