// The security console and its login: the Admin UI server, the OpenID Connect identity provider and
// the authentication proxy in front of both (the last two only with AUTH_PROXY_ENABLED=true in `all`).
// Each package is imported when its component starts (components/definition.ts says why).
import { COMPONENT_PORTS } from '@palisade/core';
import { portFor, serve, type ComponentDefinition } from './definition.js';

/** The spec's switch: AUTH_PROXY_ENABLED=true puts the login in front of the Admin API. */
function loginEnabled(env: NodeJS.ProcessEnv): boolean {
  return env.AUTH_PROXY_ENABLED === 'true';
}

export const UI: ComponentDefinition = {
  name: 'ui',
  port: COMPONENT_PORTS.ui,
  description: 'Admin UI: the security console (the built single-page app; /api/* forwarded to the Admin API)',
  async start(ctx, port, host) {
    const { buildUiServer, DEFAULT_WEB_ROOT, loadUiEnv } = await import('@palisade/ui');
    // In one process the Admin API's actual address is known; alone, ADMIN_API_URL says it.
    const adminApiUrl = ctx.env.ADMIN_API_URL || ctx.urls['admin-api'] || loadUiEnv(ctx.env).ADMIN_API_URL!;
    const { app } = buildUiServer({ webRoot: DEFAULT_WEB_ROOT, adminApiUrl, logger: ctx.logger });
    // UI_PORT is this component's own variable (PALISADE_PORT_UI, like every component's, wins).
    return serve(app, ctx.env.UI_PORT && !ctx.env.PALISADE_PORT_UI ? loadUiEnv(ctx.env).UI_PORT : port, host);
  },
};

export const AUTH_PROXY: ComponentDefinition = {
  name: 'auth-proxy',
  port: COMPONENT_PORTS['auth-proxy'],
  inAll: loginEnabled,
  description: 'authentication proxy: OIDC login and sessions in front of the Admin UI and API (oauth2-proxy compatible headers)',
  async start(ctx, port, host) {
    // In one process the IdP, UI and Admin API addresses are known; alone, the AUTH_PROXY_* variables say them.
    const idpPort = ctx.urls.idp ? new URL(ctx.urls.idp).port : undefined;
    const issuer = ctx.env.IDP_ISSUER ?? (idpPort ? `http://localhost:${idpPort}` : undefined);
    const env = {
      AUTH_PROXY_REDIRECT_URL: `http://localhost:${port}/oauth2/callback`,
      ...(issuer ? { AUTH_PROXY_ISSUER_URL: issuer } : {}),
      ...(ctx.urls['admin-api'] ? { AUTH_PROXY_API_UPSTREAM: ctx.urls['admin-api'] } : {}),
      ...(ctx.urls.ui || ctx.urls['admin-api'] ? { AUTH_PROXY_UPSTREAM: ctx.urls.ui ?? ctx.urls['admin-api'] } : {}),
      ...ctx.env,
    };
    const { createAuthProxyComponent } = await import('@palisade/admin');
    const proxy = createAuthProxyComponent({ env, logger: ctx.logger });
    const running = await serve(proxy.app, port, host);
    const email = ctx.env.ADMIN_USER_EMAIL ?? 'admin@palisade.localhost';
    ctx.logger.info({ component: 'auth-proxy' }, `open ${new URL(proxy.config.AUTH_PROXY_REDIRECT_URL!).origin}/ and sign in as ${email}`);
    return running;
  },
};

export const IDP: ComponentDefinition = {
  name: 'idp',
  port: COMPONENT_PORTS.idp,
  inAll: loginEnabled,
  description: 'OpenID Connect identity provider: login forms, users of the Admin API, tokens for the authentication proxy',
  async start(ctx, port, host) {
    // The proxy of this deployment is its client: its callback, on the proxy's configured port, is
    // the redirect URI the IdP accepts (unless IDP_REDIRECT_URIS says otherwise).
    const proxyPort = portFor(AUTH_PROXY, ctx.env);
    const callbacks = proxyPort ? { IDP_REDIRECT_URIS: `http://localhost:${proxyPort}/oauth2/callback,http://127.0.0.1:${proxyPort}/oauth2/callback` } : {};
    const env = { IDP_ISSUER: `http://localhost:${port}`, ...callbacks, ...ctx.env };
    const { createIdpComponent } = await import('@palisade/admin');
    const idp = await createIdpComponent({ db: await ctx.database(), secrets: ctx.secrets(), env, logger: ctx.logger });
    const admin = await idp.start();
    if (admin.created) ctx.logger.info({ component: 'idp', email: admin.email }, `initial administrator ${admin.email} created (change its password after the first login)`);
    // Shown once on the terminal, never logged: the only time this password exists in clear.
    if (admin.generatedPassword) process.stdout.write(`\nInitial administrator: ${admin.email}\nGenerated password (shown once): ${admin.generatedPassword}\n\n`);
    return serve(idp.app, port, host);
  },
};
