// The OpenID Provider: oidc-provider (an OpenID-certified library) configured as the spec's realm.
// One public client `admin-api` (code flow with PKCE, refresh, and the password grant for scripts);
// accounts are the Admin API's users; sessions and tokens in the database (adapter.ts); keys from
// signing-keys.ts. Access tokens for the Admin API (resource RESOURCE_INDICATOR) are JWTs that any
// proxy can validate offline against the JWKS.
import Provider, { errors, type Adapter, type Configuration, type JWK } from 'oidc-provider';
import { languageOf } from '@palisade/core';
import type { IdentityProvider } from '../identity/identity-provider.js';
import { accessTokenClaims, SCOPE_CLAIMS, userClaims } from './claims.js';
import { logoutPage, messagePage, textsFor } from './pages.js';

export const CLIENT_ID = 'admin-api';
/** The resource indicator of the Admin API; its access tokens carry `aud: admin-api`. */
export const RESOURCE_INDICATOR = 'urn:palisade:admin-api';
export const ACCESS_TOKEN_AUDIENCE = 'admin-api';
export const SCOPES = 'openid profile email';

export interface ProviderOptions {
  issuer: string;
  identity: IdentityProvider;
  adapter: (model: string) => Adapter;
  jwks: JWK[];
  cookieKeys: string[];
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  /** SSO session idle timeout (spec: 30 minutes); refresh tokens live as long unless used. */
  sessionIdleS: number;
  accessTokenTtlS: number;
  /** Behind an ingress: trust X-Forwarded-Proto/Host (Secure cookies, public URLs). */
  trustProxy: boolean;
}

async function activeUser(identity: IdentityProvider, id: string) {
  const user = await identity.getUser(id).catch(() => undefined);
  return user?.enabled ? user : undefined;
}

/** The Admin API as a resource server: JWT access tokens, audience admin-api. */
export function resourceServerInfo(accessTokenTtlS: number) {
  return {
    scope: SCOPES,
    audience: ACCESS_TOKEN_AUDIENCE,
    accessTokenTTL: accessTokenTtlS,
    accessTokenFormat: 'jwt' as const,
    jwt: { sign: { alg: 'RS256' as const } },
  };
}
export type ResourceServerInfo = ReturnType<typeof resourceServerInfo>;

export function createOidcProvider(options: ProviderOptions): Provider {
  const { identity } = options;
  const resourceServer = resourceServerInfo(options.accessTokenTtlS);
  const configuration: Configuration = {
    adapter: options.adapter as unknown as Configuration['adapter'],
    jwks: { keys: options.jwks as NonNullable<Configuration['jwks']>['keys'] },
    cookies: { keys: options.cookieKeys, long: { signed: true, httpOnly: true, sameSite: 'lax' }, short: { signed: true, httpOnly: true, sameSite: 'lax' } },
    clients: [
      {
        client_id: CLIENT_ID,
        client_name: 'Palisade',
        token_endpoint_auth_method: 'none',
        application_type: 'web',
        grant_types: ['authorization_code', 'refresh_token', 'password'],
        response_types: ['code'],
        redirect_uris: options.redirectUris,
        post_logout_redirect_uris: options.postLogoutRedirectUris,
      },
    ],
    pkce: { required: () => true, methods: ['S256'] },
    claims: SCOPE_CLAIMS,
    scopes: ['openid', 'profile', 'email', 'offline_access'],
    // Claims of the requested scopes also go into the ID token (Keycloak's behaviour; the proxy reads them there).
    conformIdTokenClaims: false,
    issueRefreshToken: async (_ctx, client, code) => client.grantTypeAllowed('refresh_token') && code.scopes.has('openid'),
    rotateRefreshToken: true,
    ttl: {
      AccessToken: options.accessTokenTtlS,
      AuthorizationCode: 60,
      IdToken: options.accessTokenTtlS,
      Interaction: 600,
      Session: options.sessionIdleS,
      Grant: options.sessionIdleS,
      RefreshToken: options.sessionIdleS,
    },
    async findAccount(_ctx, id) {
      const user = await activeUser(identity, id);
      if (!user) return undefined;
      return { accountId: user.id, claims: async () => userClaims(user) as { sub: string } };
    },
    async extraTokenClaims(_ctx, token) {
      if (token.kind !== 'AccessToken' || !('accountId' in token) || !token.accountId) return undefined;
      const user = await activeUser(identity, token.accountId as string);
      return user ? accessTokenClaims(user) : undefined;
    },
    // A first-party client: the user is never asked to consent; the grant covers the fixed scopes.
    async loadExistingGrant(ctx) {
      const { oidc } = ctx;
      if (!oidc.session?.accountId || !oidc.client) return undefined;
      const grantId = oidc.result?.consent?.grantId ?? oidc.session.grantIdFor(oidc.client.clientId);
      const grant = (grantId && (await oidc.provider.Grant.find(grantId))) || new oidc.provider.Grant({ clientId: oidc.client.clientId, accountId: oidc.session.accountId });
      grant.addOIDCScope(SCOPES + (oidc.params?.scope && String(oidc.params.scope).includes('offline_access') ? ' offline_access' : ''));
      grant.addResourceScope(RESOURCE_INDICATOR, SCOPES);
      await grant.save();
      return grant;
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      userinfo: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => RESOURCE_INDICATOR,
        useGrantedResource: async () => false,
        getResourceServerInfo: async (_ctx, resource) => {
          if (resource !== RESOURCE_INDICATOR) throw new errors.InvalidTarget();
          return resourceServer;
        },
      },
      rpInitiatedLogout: {
        enabled: true,
        async logoutSource(ctx, form) {
          ctx.type = 'html';
          ctx.body = logoutPage(languageOf(ctx.get('accept-language')), form);
        },
        async postLogoutSuccessSource(ctx) {
          const language = languageOf(ctx.get('accept-language'));
          ctx.type = 'html';
          ctx.body = messagePage(language, textsFor(language).logoutTitle, textsFor(language).loggedOut);
        },
      },
    },
    async renderError(ctx, out) {
      const language = languageOf(ctx.get('accept-language'));
      ctx.type = 'html';
      ctx.body = messagePage(language, textsFor(language).errorTitle, `${out.error}: ${out.error_description ?? ''}`);
    },
  };
  const provider = new Provider(options.issuer, configuration);
  provider.proxy = options.trustProxy;
  return provider;
}
