// The login and password-change forms of oidc-provider's interactions. CSRF: each form carries an
// HMAC of its interaction id, and oidc-provider only finds the interaction with its own signed,
// SameSite=Lax cookie, so a form posted from another site has neither.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { Adapter } from 'oidc-provider';
import { languageOf, PalisadeError } from '@palisade/core';
import type { IdentityProvider } from '../identity/identity-provider.js';
import type { LoginChecker } from './login.js';
import { clientAddress } from './password-grant.js';
import { loginPage, messagePage, passwordChangePage, textsFor, type Texts } from './pages.js';

export interface InteractionDeps {
  provider: Provider;
  identity: IdentityProvider;
  checkLogin: LoginChecker;
  /** Where a login waiting for its password change is remembered (by interaction id). */
  pending: Adapter;
  csrfKey: string;
  trustProxy: boolean;
}

type Form = Record<string, string | undefined>;
const UID = /^[\w-]{1,64}$/;
const MIN_PASSWORD = 8;

export function registerInteractionRoutes(app: FastifyInstance, deps: InteractionDeps): void {
  const { provider } = deps;
  const csrfFor = (uid: string) => createHmac('sha256', deps.csrfKey).update(`csrf:${uid}`).digest('base64url');
  const csrfOk = (uid: string, sent: string | undefined) => {
    const expected = Buffer.from(csrfFor(uid));
    const got = Buffer.from(sent ?? '');
    return got.length === expected.length && timingSafeEqual(got, expected);
  };
  const texts = (request: FastifyRequest) => ({ language: languageOf(request.headers['accept-language']), t: textsFor(languageOf(request.headers['accept-language'])) });

  function html(reply: FastifyReply, status: number, body: string) {
    return reply.code(status).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').header('x-frame-options', 'DENY').send(body);
  }

  /** The interaction behind this browser's cookie, or an "expired" page when there is none (or another uid). */
  async function details(request: FastifyRequest, reply: FastifyReply) {
    const { uid } = request.params as { uid: string };
    try {
      if (!UID.test(uid)) throw new Error('bad uid');
      const found = await provider.interactionDetails(request.raw, reply.raw);
      if (found.uid !== uid) throw new Error('another interaction');
      return found;
    } catch {
      const { language, t } = texts(request);
      await html(reply, 400, messagePage(language, t.errorTitle, t.expired));
      return undefined;
    }
  }

  async function finish(request: FastifyRequest, reply: FastifyReply, accountId: string) {
    const to = await provider.interactionResult(request.raw, reply.raw, { login: { accountId } }, { mergeWithLastSubmission: false });
    return reply.code(303).header('cache-control', 'no-store').redirect(to, 303);
  }

  const loginForm = (request: FastifyRequest, reply: FastifyReply, uid: string, status: number, extra: { login?: string; error?: string } = {}) => {
    const { language } = texts(request);
    return html(reply, status, loginPage({ language, action: `/interaction/${uid}/login`, abort: `/interaction/${uid}/abort`, csrf: csrfFor(uid), ...extra }));
  };
  const changeForm = (request: FastifyRequest, reply: FastifyReply, uid: string, status: number, error?: string) => {
    const { language } = texts(request);
    return html(reply, status, passwordChangePage({ language, action: `/interaction/${uid}/password`, csrf: csrfFor(uid), ...(error ? { error } : {}) }));
  };
  const refuseCsrf = (request: FastifyRequest, reply: FastifyReply) => {
    const { language, t } = texts(request);
    return html(reply, 403, messagePage(language, t.errorTitle, t.csrf));
  };

  app.get('/interaction/:uid', async (request, reply) => {
    const found = await details(request, reply);
    if (!found) return reply;
    return loginForm(request, reply, found.uid, 200);
  });

  app.post('/interaction/:uid/login', async (request, reply) => {
    const found = await details(request, reply);
    if (!found) return reply;
    const form = (request.body ?? {}) as Form;
    if (!csrfOk(found.uid, form.csrf)) return refuseCsrf(request, reply);
    const login = String(form.login ?? '');
    const check = await deps.checkLogin(login, String(form.password ?? ''), clientAddress(request.raw, deps.trustProxy));
    const { t } = texts(request);
    if (check.outcome === 'locked') return loginForm(request, reply, found.uid, 429, { login, error: t.locked(Math.ceil(check.waitMs / 1000)) });
    if (check.outcome === 'disabled') return loginForm(request, reply, found.uid, 403, { login, error: t.disabled });
    if (check.outcome === 'invalid') return loginForm(request, reply, found.uid, 401, { login, error: t.invalid });
    if (check.mustChangePassword) {
      await deps.pending.upsert(found.uid, { accountId: check.user.id }, 600);
      return changeForm(request, reply, found.uid, 200);
    }
    return finish(request, reply, check.user.id);
  });

  app.post('/interaction/:uid/password', async (request, reply) => {
    const found = await details(request, reply);
    if (!found) return reply;
    const form = (request.body ?? {}) as Form;
    if (!csrfOk(found.uid, form.csrf)) return refuseCsrf(request, reply);
    const pending = await deps.pending.find(found.uid);
    const { t } = texts(request);
    // Only a login that just proved the temporary password may set a new one.
    if (!pending?.accountId) return loginForm(request, reply, found.uid, 400, { error: t.expired });
    const error = passwordProblem(t, String(form.new_password ?? ''), String(form.confirm_password ?? ''));
    if (error) return changeForm(request, reply, found.uid, 400, error);
    try {
      await deps.identity.changePassword(pending.accountId, String(form.new_password));
    } catch (cause) {
      if (cause instanceof PalisadeError && cause.code === 'CONFLICT') return changeForm(request, reply, found.uid, 400, t.sameAsOld);
      throw cause;
    }
    await deps.pending.destroy(found.uid);
    return finish(request, reply, pending.accountId);
  });

  app.get('/interaction/:uid/abort', async (request, reply) => {
    const found = await details(request, reply);
    if (!found) return reply;
    const to = await provider.interactionResult(request.raw, reply.raw, { error: 'access_denied', error_description: 'the user cancelled the sign-in' }, { mergeWithLastSubmission: false });
    return reply.redirect(to, 303);
  });
}

function passwordProblem(t: Texts, password: string, confirm: string): string | undefined {
  if (password.length < MIN_PASSWORD || password.length > 256) return t.tooShort;
  if (password !== confirm) return t.mismatch;
  return undefined;
}
