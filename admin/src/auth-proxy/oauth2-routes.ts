// oauth2-proxy's endpoints under /oauth2/: sign in through the IdP (PKCE, state and nonce kept in a
// sealed login cookie), its callback, sign out, the caller's identity, and nginx's auth_request check.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { languageOf } from '@palisade/core';
import { messagePage, textsFor } from '../oidc-provider/pages.js';
import type { Authenticator, ProxyCookies } from './authenticate.js';
import type { RelyingParty } from './relying-party.js';
import { LOGIN_COOKIE_MAX_AGE_S, readCookie, type PendingLogin, type Session } from './session.js';

/** A return path after login: only a local path (no scheme, no //host), else the root. */
export function safeReturnPath(value: unknown): string {
  const path = typeof value === 'string' ? value : '';
  return path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\') && path.length <= 2048 ? path : '/';
}

/** An error page in the browser's language. */
function page(request: FastifyRequest, reply: FastifyReply, status: number, message: (t: ReturnType<typeof textsFor>) => string) {
  const language = languageOf(request.headers['accept-language']);
  const t = textsFor(language);
  return reply.code(status).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(messagePage(language, t.errorTitle, message(t)));
}

export function registerOAuth2Routes(
  app: FastifyInstance,
  deps: { rp: RelyingParty; cookies: ProxyCookies; authenticator: Authenticator; redirectUrl: URL; now: () => number },
): void {
  const { rp, cookies, authenticator, redirectUrl, now } = deps;
  const { codec, loginCookie } = cookies;

  app.get('/oauth2/sign_in', async (request, reply) => {
    const start = await rp.signInUrl();
    const pending: PendingLogin = { verifier: start.verifier, state: start.state, nonce: start.nonce, returnTo: safeReturnPath((request.query as { rd?: string }).rd), createdAt: now() };
    cookies.set(reply, loginCookie, codec.seal(pending), LOGIN_COOKIE_MAX_AGE_S);
    return reply.header('cache-control', 'no-store').redirect(start.url.href, 302);
  });

  app.get('/oauth2/callback', async (request, reply) => {
    const pending = codec.open<PendingLogin>(readCookie(request.headers.cookie, loginCookie));
    // Without the login cookie the state cannot be checked: a replayed or forged callback.
    if (!pending || now() - pending.createdAt > LOGIN_COOKIE_MAX_AGE_S * 1000) return page(request, reply, 400, (t) => t.expired);
    cookies.set(reply, loginCookie, '', 0);
    const current = new URL(request.url, redirectUrl.origin);
    try {
      const tokens = await rp.callback(current, pending);
      cookies.set(reply, cookies.sessionCookie, codec.seal(authenticator.sessionFromTokens(tokens)), cookies.maxAgeS);
      return reply.header('cache-control', 'no-store').redirect(pending.returnTo, 302);
    } catch (error) {
      request.log.warn({ err: error }, 'sign-in callback refused');
      return page(request, reply, 401, (t) => t.signInFailed);
    }
  });

  app.get('/oauth2/sign_out', async (request, reply) => {
    const session = codec.open<Session>(readCookie(request.headers.cookie, cookies.sessionCookie));
    cookies.clearSession(reply);
    const home = `${redirectUrl.origin}${safeReturnPath((request.query as { rd?: string }).rd)}`;
    const endSession = await rp.signOutUrl(session?.idToken, `${redirectUrl.origin}/`).catch(() => undefined);
    return reply.header('cache-control', 'no-store').redirect(endSession?.href ?? home, 302);
  });

  app.get('/oauth2/userinfo', async (request, reply) => {
    const found = await authenticator.authenticate(request, reply);
    if (!found || found === 'bad-bearer') return reply.code(401).send({ error: 'unauthorized' });
    const { user } = found;
    return { user: user.user, email: user.email, groups: user.groups, preferredUsername: user.preferredUsername, tenant_id: user.tenantId || undefined };
  });

  // oauth2-proxy's auth_request endpoint (nginx ingress): 202 with a session, 401 without.
  app.get('/oauth2/auth', async (request, reply) => {
    const found = await authenticator.authenticate(request, reply);
    return reply.code(found && found !== 'bad-bearer' ? 202 : 401).send();
  });
}
