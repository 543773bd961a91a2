// The authentication proxy's variables (README "Identity and login"). Names follow oauth2-proxy's
// options where one exists, so a deployment can move between the two.
import { envBool, envInt, envSecret, envString, envUrl, parseEnv, COMPONENT_PORTS } from '@palisade/core';

export const AUTH_PROXY_PORT = COMPONENT_PORTS['auth-proxy'];

export const AUTH_PROXY_ENV = {
  /** The OIDC issuer (discovery at <issuer>/.well-known/openid-configuration): ours, Keycloak's realm, Entra ID, Okta, Dex. */
  AUTH_PROXY_ISSUER_URL: envUrl(['http', 'https'], 'http://localhost:8080'),
  AUTH_PROXY_CLIENT_ID: envString('admin-api'),
  /** Only for a confidential client; the built-in IdP's admin-api client is public (PKCE). */
  AUTH_PROXY_CLIENT_SECRET: envSecret(),
  /** The public URL of /oauth2/callback; its origin is the proxy's public origin. */
  AUTH_PROXY_REDIRECT_URL: envUrl(['http', 'https'], `http://localhost:${AUTH_PROXY_PORT}/oauth2/callback`),
  AUTH_PROXY_SCOPES: envString('openid profile email'),
  /** Every path goes here (the Admin UI, which itself proxies /api/ to the Admin API). */
  AUTH_PROXY_UPSTREAM: envUrl(['http', 'https'], 'http://127.0.0.1:4200'),
  /** When set, /api/, /docs, /redoc and /openapi.json go straight to the Admin API. */
  AUTH_PROXY_API_UPSTREAM: envUrl(['http', 'https']),
  /** Encrypts the session cookie; derived from PALISADE_SECRET_KEY when unset. */
  AUTH_PROXY_COOKIE_SECRET: envSecret(),
  AUTH_PROXY_COOKIE_NAME: envString('_palisade_session'),
  /** Secure cookies; by default when the redirect URL is https. */
  AUTH_PROXY_COOKIE_SECURE: envBool(false),
  AUTH_PROXY_COOKIE_EXPIRE_MINUTES: envInt(1, 30 * 24 * 60, 12 * 60),
  /** How often a session is refreshed at the IdP (a disabled user's session ends at the next refresh). */
  AUTH_PROXY_COOKIE_REFRESH_SECONDS: envInt(0, 86_400, 60),
  /** Claim names (a dotted path reads nested claims, e.g. realm_access.roles). */
  AUTH_PROXY_USER_CLAIM: envString('preferred_username'),
  AUTH_PROXY_GROUPS_CLAIM: envString('groups'),
  AUTH_PROXY_TENANT_CLAIM: envString('tenant_id'),
  /** The audience a bearer access token must carry. */
  AUTH_PROXY_AUDIENCE: envString('admin-api'),
  /** Also pass the access token as X-Forwarded-Access-Token (oauth2-proxy's pass-access-token). */
  AUTH_PROXY_PASS_ACCESS_TOKEN: envBool(false),
  /** Signs the forwarded identity for the Admin API (the same value there). */
  AUTH_PROXY_SHARED_SECRET: envSecret(),
} as const;

export const loadAuthProxyConfig = (env: NodeJS.ProcessEnv) => parseEnv(AUTH_PROXY_ENV, env);
export type AuthProxyConfig = ReturnType<typeof loadAuthProxyConfig>;
