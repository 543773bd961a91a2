// Who is calling the authentication proxy: an API client's bearer access token, or the browser's
// session cookie, refreshed at the IdP when due; and the two cookies (the session, a pending login).
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createSecretBox, DEVELOPMENT_SECRET_KEY } from '@palisade/core';
import type { AuthProxyConfig } from './config.js';
import { userFromClaims, type ForwardedUser } from './identity.js';
import type { RelyingParty } from './relying-party.js';
import { createCookieCodec, LOGIN_COOKIE_SUFFIX, readCookie, serializeCookie, type CookieCodec, type Session } from './session.js';

export interface ProxyCookies {
  codec: CookieCodec;
  sessionCookie: string;
  loginCookie: string;
  /** A session's lifetime from sign-in, in seconds. */
  maxAgeS: number;
  set(reply: FastifyReply, name: string, value: string, age: number): FastifyReply;
  clearSession(reply: FastifyReply): FastifyReply;
}

export function createProxyCookies(config: AuthProxyConfig, env: NodeJS.ProcessEnv, redirectUrl: URL): ProxyCookies {
  const secret = config.AUTH_PROXY_COOKIE_SECRET ?? createHash('sha256').update(`palisade-auth-proxy:${env.PALISADE_SECRET_KEY ?? DEVELOPMENT_SECRET_KEY}`).digest('base64url');
  const secure = config.AUTH_PROXY_COOKIE_SECURE || redirectUrl.protocol === 'https:';
  const sessionCookie = config.AUTH_PROXY_COOKIE_NAME!;
  const set = (reply: FastifyReply, name: string, value: string, age: number) => reply.header('set-cookie', serializeCookie(name, value, { secure, maxAgeS: age }));
  return {
    codec: createCookieCodec(createSecretBox(secret)),
    sessionCookie,
    loginCookie: sessionCookie + LOGIN_COOKIE_SUFFIX,
    maxAgeS: config.AUTH_PROXY_COOKIE_EXPIRE_MINUTES * 60,
    set,
    clearSession: (reply) => set(reply, sessionCookie, '', 0),
  };
}

/** What the IdP's token endpoint answers, as far as a session needs it. */
export interface SessionTokens {
  claims(): Record<string, unknown> | undefined;
  id_token?: string;
  refresh_token?: string;
  access_token: string;
  expiresIn(): number | undefined;
}

export interface Caller {
  user: ForwardedUser;
  accessToken?: string | undefined;
}

export interface Authenticator {
  /** A session from the IdP's tokens; a refresh keeps what the new tokens lack from `previous`. */
  sessionFromTokens(tokens: SessionTokens, previous?: Session): Session;
  /** The caller; 'bad-bearer' for a bearer token that does not verify; undefined without a session. */
  authenticate(request: FastifyRequest, reply: FastifyReply): Promise<Caller | 'bad-bearer' | undefined>;
}

export function createAuthenticator(deps: { config: AuthProxyConfig; rp: RelyingParty; cookies: ProxyCookies; now: () => number }): Authenticator {
  const { config, rp, cookies, now } = deps;
  const claimNames = { user: config.AUTH_PROXY_USER_CLAIM!, groups: config.AUTH_PROXY_GROUPS_CLAIM!, tenant: config.AUTH_PROXY_TENANT_CLAIM! };

  function sessionFromTokens(tokens: SessionTokens, previous?: Session): Session {
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
    const raw = readCookie(request.headers.cookie, cookies.sessionCookie);
    if (!raw) return undefined;
    const session = cookies.codec.open<Session>(raw);
    const at = now();
    if (!session || at - session.createdAt > cookies.maxAgeS * 1000) {
      cookies.clearSession(reply);
      return undefined;
    }
    const due = at - session.refreshedAt >= config.AUTH_PROXY_COOKIE_REFRESH_SECONDS * 1000 || at >= session.expiresAt - 10_000;
    if (!due) return session;
    if (!session.refreshToken) return at < session.expiresAt ? session : (cookies.clearSession(reply), undefined);
    try {
      const next = sessionFromTokens(await rp.refresh(session.refreshToken), session);
      cookies.set(reply, cookies.sessionCookie, cookies.codec.seal(next), cookies.maxAgeS - Math.floor((at - next.createdAt) / 1000));
      return next;
    } catch (error) {
      // The IdP refused (user disabled or deleted, session idle too long) or is down: sign in again.
      request.log.info({ err: error }, 'session refresh failed; the session ends');
      cookies.clearSession(reply);
      return undefined;
    }
  }

  return {
    sessionFromTokens,
    async authenticate(request, reply) {
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
    },
  };
}
