// `palisade auth-proxy` (port 4180): the authentication proxy in front of the Admin UI and the Admin
// API, behaving like oauth2-proxy (same endpoints under /oauth2/, same forwarded headers), so either
// can sit there. A browser without a session is sent through the IdP's login; an API client may send
// `Authorization: Bearer <access token>` instead of a cookie.
import { createHash } from 'node:crypto';
import replyFrom from '@fastify/reply-from';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { createSecretBox, createService, DEVELOPMENT_SECRET_KEY, languageOf } from '@palisade/core';
import { messagePage, textsFor } from '../oidc-provider/pages.js';
import { loadAuthProxyConfig } from './config.js';
import { forwardHeaders, userFromClaims, type ForwardedUser } from './identity.js';
import { createRelyingParty } from './relying-party.js';
import { createCookieCodec, LOGIN_COOKIE_MAX_AGE_S, LOGIN_COOKIE_SUFFIX, readCookie, serializeCookie, type PendingLogin, type Session } from './session.js';

export interface AuthProxyDeps {
  env: NodeJS.ProcessEnv;
  logger?: Logger;
  logLevel?: string;
  now?: () => number;
}

const API_PATHS = /^\/(api\/|docs(\/|$)|redoc(\/|$)|openapi\.json$)/;

/** A return path after login: only a local path (no scheme, no //host), else the root. */
export function safeReturnPath(value: unknown): string {
  const path = typeof value === 'string' ? value : '';
  return path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\') && path.length <= 2048 ? path : '/';
}

export function createAuthProxyComponent(deps: AuthProxyDeps) {
  const config = loadAuthProxyConfig(deps.env);
  const now = deps.now ?? Date.now;
  const secret = config.AUTH_PROXY_COOKIE_SECRET ?? createHash('sha256').update(`palisade-auth-proxy:${deps.env.PALISADE_SECRET_KEY ?? DEVELOPMENT_SECRET_KEY}`).digest('base64url');
  const codec = createCookieCodec(createSecretBox(secret));
  const redirectUrl = new URL(config.AUTH_PROXY_REDIRECT_URL!);
  const secure = config.AUTH_PROXY_COOKIE_SECURE || redirectUrl.protocol === 'https:';
  const cookieName = config.AUTH_PROXY_COOKIE_NAME!;
  const loginCookie = cookieName + LOGIN_COOKIE_SUFFIX;
  const maxAgeS = config.AUTH_PROXY_COOKIE_EXPIRE_MINUTES * 60;
  const claimNames = { user: config.AUTH_PROXY_USER_CLAIM!, groups: config.AUTH_PROXY_GROUPS_CLAIM!, tenant: config.AUTH_PROXY_TENANT_CLAIM! };
  const rp = createRelyingParty({
    issuer: config.AUTH_PROXY_ISSUER_URL!,
    clientId: config.AUTH_PROXY_CLIENT_ID!,
    clientSecret: config.AUTH_PROXY_CLIENT_SECRET,
    redirectUri: redirectUrl.href,
    scopes: config.AUTH_PROXY_SCOPES!,
    audience: config.AUTH_PROXY_AUDIENCE!,
  });

  const { app } = createService({ name: 'auth-proxy', ...(deps.logger ? { logger: deps.logger } : { logLevel: deps.logLevel ?? 'info' }) });
  app.register(replyFrom, { undici: { connections: 64, pipelining: 1 } as never });
  // Bodies stream through untouched.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  const setCookie = (reply: FastifyReply, name: string, value: string, age: number) => reply.header('set-cookie', serializeCookie(name, value, { secure, maxAgeS: age }));
  const clearSession = (reply: FastifyReply) => setCookie(reply, cookieName, '', 0);
  const page = (request: FastifyRequest, reply: FastifyReply, status: number, message: (t: ReturnType<typeof textsFor>) => string) => {
    const language = languageOf(request.headers['accept-language']);
    const t = textsFor(language);
    return reply.code(status).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(messagePage(language, t.errorTitle, message(t)));
  };

  function sessionFromTokens(tokens: { claims(): Record<string, unknown> | undefined; id_token?: string; refresh_token?: string; access_token: string; expiresIn(): number | undefined }, previous?: Session): Session {
    const claims = tokens.claims();
    const user = claims ? userFromClaims(claims, claimNames) : previous!.user;
    const at = now();
    return {
      user,
      idToken: tokens.id_token ?? previous?.idToken,
      refreshToken: tokens.refresh_token ?? previous?.refreshToken,
      ...(config.AUTH_PROXY_PASS_ACCESS_TOKEN ? { accessToken: tokens.access_token } : {}),
      createdAt: previous?.createdAt ?? at,
      refreshedAt: at,
      expiresAt: at + (tokens.expiresIn() ?? 300) * 1000,
    };
  }

  /** The session of this request, refreshed at the IdP when due; undefined (cookie cleared) when it ended. */
  async function currentSession(request: FastifyRequest, reply: FastifyReply): Promise<Session | undefined> {
    const raw = readCookie(request.headers.cookie, cookieName);
    if (!raw) return undefined;
    const session = codec.open<Session>(raw);
    const at = now();
    if (!session || at - session.createdAt > maxAgeS * 1000) {
      clearSession(reply);
      return undefined;
    }
    const due = at - session.refreshedAt >= config.AUTH_PROXY_COOKIE_REFRESH_SECONDS * 1000 || at >= session.expiresAt - 10_000;
    if (!due) return session;
    if (!session.refreshToken) return at < session.expiresAt ? session : (clearSession(reply), undefined);
    try {
      const next = sessionFromTokens(await rp.refresh(session.refreshToken), session);
      setCookie(reply, cookieName, codec.seal(next), maxAgeS - Math.floor((at - next.createdAt) / 1000));
      return next;
    } catch (error) {
      // The IdP refused (user disabled or deleted, session idle too long) or is down: sign in again.
      request.log.info({ err: error }, 'session refresh failed; the session ends');
      clearSession(reply);
      return undefined;
    }
  }

  async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<{ user: ForwardedUser; accessToken?: string | undefined } | 'bad-bearer' | undefined> {
    const authorization = request.headers.authorization;
    if (authorization?.startsWith('Bearer ')) {
      const token = authorization.slice(7).trim();
      try {
        return { user: userFromClaims(await rp.verifyBearer(token), claimNames), accessToken: token };
      } catch {
        return 'bad-bearer';
      }
    }
    const session = await currentSession(request, reply);
    return session ? { user: session.user, accessToken: session.accessToken } : undefined;
  }

  app.get('/oauth2/sign_in', async (request, reply) => {
    const start = await rp.signInUrl();
    const pending: PendingLogin = { verifier: start.verifier, state: start.state, nonce: start.nonce, returnTo: safeReturnPath((request.query as { rd?: string }).rd), createdAt: now() };
    setCookie(reply, loginCookie, codec.seal(pending), LOGIN_COOKIE_MAX_AGE_S);
    return reply.header('cache-control', 'no-store').redirect(start.url.href, 302);
  });

  app.get('/oauth2/callback', async (request, reply) => {
    const pending = codec.open<PendingLogin>(readCookie(request.headers.cookie, loginCookie));
    // Without the login cookie the state cannot be checked: a replayed or forged callback.
    if (!pending || now() - pending.createdAt > LOGIN_COOKIE_MAX_AGE_S * 1000) return page(request, reply, 400, (t) => t.expired);
    setCookie(reply, loginCookie, '', 0);
    const current = new URL(request.url, redirectUrl.origin);
    try {
      const tokens = await rp.callback(current, pending);
      setCookie(reply, cookieName, codec.seal(sessionFromTokens(tokens)), maxAgeS);
      return reply.header('cache-control', 'no-store').redirect(pending.returnTo, 302);
    } catch (error) {
      request.log.warn({ err: error }, 'sign-in callback refused');
      return page(request, reply, 401, (t) => t.signInFailed);
    }
  });

  app.get('/oauth2/sign_out', async (request, reply) => {
    const session = codec.open<Session>(readCookie(request.headers.cookie, cookieName));
    clearSession(reply);
    const home = `${redirectUrl.origin}${safeReturnPath((request.query as { rd?: string }).rd)}`;
    const endSession = await rp.signOutUrl(session?.idToken, `${redirectUrl.origin}/`).catch(() => undefined);
    return reply.header('cache-control', 'no-store').redirect(endSession?.href ?? home, 302);
  });

  app.get('/oauth2/userinfo', async (request, reply) => {
    const found = await authenticate(request, reply);
    if (!found || found === 'bad-bearer') return reply.code(401).send({ error: 'unauthorized' });
    const { user } = found;
    return { user: user.user, email: user.email, groups: user.groups, preferredUsername: user.preferredUsername, tenant_id: user.tenantId || undefined };
  });

  // oauth2-proxy's auth_request endpoint (nginx ingress): 202 with a session, 401 without.
  app.get('/oauth2/auth', async (request, reply) => {
    const found = await authenticate(request, reply);
    return reply.code(found && found !== 'bad-bearer' ? 202 : 401).send();
  });

  app.all('/*', async (request, reply) => {
    const found = await authenticate(request, reply);
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
