// The IdP's variables (README "Identity and login").
import { envBool, envInt, envSecret, envString, envUrl, parseEnv, COMPONENT_PORTS } from '@palisade/core';

export const IDP_PORT = COMPONENT_PORTS.idp;

export const IDP_ENV = {
  /** The issuer: the URL browsers and the proxy reach the IdP at (discovery is at /.well-known/openid-configuration). */
  IDP_ISSUER: envUrl(['http', 'https'], `http://localhost:${IDP_PORT}`),
  /** Comma-separated redirect URIs of the admin-api client: the proxy's /oauth2/callback. */
  IDP_REDIRECT_URIS: envString('http://localhost:4180/oauth2/callback,http://127.0.0.1:4180/oauth2/callback'),
  IDP_SESSION_IDLE_MINUTES: envInt(1, 24 * 60, 30),
  IDP_ACCESS_TOKEN_MINUTES: envInt(1, 60, 5),
  IDP_KEY_ROTATION_DAYS: envInt(1, 3650, 90),
  /** Trust X-Forwarded-For/-Proto (set behind an ingress): lockout by the real address, Secure cookies. */
  IDP_TRUST_PROXY: envBool(false),
  /** Signs the IdP's cookies and CSRF tokens; derived from PALISADE_SECRET_KEY when unset. */
  IDP_COOKIE_SECRET: envSecret(),
  IDP_LOCKOUT_FAILURES: envInt(1, 1000, 5),
  IDP_LOCKOUT_ADDRESS_FAILURES: envInt(1, 100_000, 20),
  IDP_LOCKOUT_WAIT_SECONDS: envInt(1, 86_400, 60),
  IDP_LOCKOUT_MAX_WAIT_SECONDS: envInt(1, 86_400 * 7, 900),
  ADMIN_USER_EMAIL: envString('admin@palisade.localhost'),
  /** Generated (and printed once) when unset. */
  ADMIN_USER_PASSWORD: envSecret(),
  ADMIN_USER_USERNAME: envString('admin'),
  ADMIN_USER_TENANT: envString('default'),
} as const;

export const loadIdpConfig = (env: NodeJS.ProcessEnv) => parseEnv(IDP_ENV, env);
export type IdpConfig = ReturnType<typeof loadIdpConfig>;
