// `palisade auth-proxy` (port 4180): the authentication proxy in front of the Admin UI and the Admin
// API, behaving like oauth2-proxy (same endpoints under /oauth2/, same forwarded headers), so either
// can sit there. A browser without a session is sent through the IdP's login; an API client may send
// `Authorization: Bearer <access token>` instead of a cookie.
import replyFrom from '@fastify/reply-from';
import type { Logger } from 'pino';
import { createService } from '@palisade/core';
import { createAuthenticator, createProxyCookies } from './authenticate.js';
import { loadAuthProxyConfig } from './config.js';
import { forwardHeaders } from './identity.js';
import { registerOAuth2Routes, safeReturnPath } from './oauth2-routes.js';
import { createRelyingParty } from './relying-party.js';

export interface AuthProxyDeps {
  env: NodeJS.ProcessEnv;
  logger?: Logger;
  logLevel?: string;
  now?: () => number;
}

const API_PATHS = /^\/(api\/|docs(\/|$)|redoc(\/|$)|openapi\.json$)/;

export function createAuthProxyComponent(deps: AuthProxyDeps) {
  const config = loadAuthProxyConfig(deps.env);
  const now = deps.now ?? Date.now;
  const redirectUrl = new URL(config.AUTH_PROXY_REDIRECT_URL!);
  const cookies = createProxyCookies(config, deps.env, redirectUrl);
  const rp = createRelyingParty({
    issuer: config.AUTH_PROXY_ISSUER_URL!,
    clientId: config.AUTH_PROXY_CLIENT_ID!,
    clientSecret: config.AUTH_PROXY_CLIENT_SECRET,
    redirectUri: redirectUrl.href,
    scopes: config.AUTH_PROXY_SCOPES!,
    audience: config.AUTH_PROXY_AUDIENCE!,
  });
  const authenticator = createAuthenticator({ config, rp, cookies, now });

  const { app } = createService({ name: 'auth-proxy', ...(deps.logger ? { logger: deps.logger } : { logLevel: deps.logLevel ?? 'info' }) });
  app.register(replyFrom, { undici: { connections: 64, pipelining: 1 } as never });
  // Bodies stream through untouched.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  registerOAuth2Routes(app, { rp, cookies, authenticator, redirectUrl, now });

  app.all('/*', async (request, reply) => {
    const found = await authenticator.authenticate(request, reply);
    if (found === 'bad-bearer') return reply.code(401).header('www-authenticate', 'Bearer error="invalid_token"').send({ error: 'invalid_token' });
    if (!found) {
      const wantsPage = request.method === 'GET' && String(request.headers.accept ?? '').includes('text/html');
      if (wantsPage) return reply.redirect(`/oauth2/sign_in?rd=${encodeURIComponent(safeReturnPath(request.url))}`, 302);
      return reply.code(401).send({ error: 'unauthorized' });
    }
    const upstream = config.AUTH_PROXY_API_UPSTREAM && API_PATHS.test(request.url) ? config.AUTH_PROXY_API_UPSTREAM : config.AUTH_PROXY_UPSTREAM!;
    return reply.from(upstream.replace(/\/$/, '') + request.url, {
      rewriteRequestHeaders: (_req, headers) => forwardHeaders(headers, found.user, { secret: config.AUTH_PROXY_SHARED_SECRET, accessToken: config.AUTH_PROXY_PASS_ACCESS_TOKEN ? found.accessToken : undefined }),
    });
  });

  return { app, config, relyingParty: rp };
}
export type AuthProxyComponent = ReturnType<typeof createAuthProxyComponent>;
