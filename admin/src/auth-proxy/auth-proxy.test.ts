// The authentication proxy against the real IdP and Admin API on loopback (no browser: a cookie-jar
// user agent walks the redirects), on PGlite and PostgreSQL.
import t from 'tap';
import * as oidc from 'openid-client';
import { generateKeyPair, SignJWT } from 'jose';
import { forEachDatabase } from '@palisade/core/testing';
import { createUserAgent, formOf, TEST_ADMIN } from '../testing/oidc.js';
import { startLoginStack } from '../testing/stack.js';
import { safeReturnPath } from './oauth2-routes.js';

const HTML = { accept: 'text/html' };

/** Signs in through the proxy from `path`; returns the agent and the last answer (the page at `path`). */
async function signIn(proxyBase: string, login: string, password: string, path = '/') {
  const agent = createUserAgent();
  const start = await agent.follow(`${proxyBase}${path}`, { headers: HTML });
  const form = formOf(await start.res.text());
  const done = await agent.follow(new URL(form.action, start.url), { method: 'POST', form: { csrf: form.csrf, login, password }, headers: HTML });
  return { agent, done, loginUrl: start.url };
}

const identityOf = async (res: Response) => JSON.parse(/<pre id="identity">(.*)<\/pre>/.exec(await res.text())?.[1] ?? '{}') as Record<string, string>;

t.test('safe return paths', async (t) => {
  t.equal(safeReturnPath('/providers?x=1'), '/providers?x=1');
  for (const bad of ['//evil.test/', 'https://evil.test/', '/\\evil.test', undefined, 'providers']) t.equal(safeReturnPath(bad), '/', String(bad));
});

t.test('authentication proxy', async (t) => {
  await forEachDatabase(t, async (t, db) => {
    const stack = await startLoginStack(t, db, { AUTH_PROXY_COOKIE_REFRESH_SECONDS: '0' });
    const { proxyBase, apiBase, issuer, identity } = stack;

    t.test('login through the IdP, identity forwarded and signed, spoofing stripped', async (t) => {
      const { agent, done, loginUrl } = await signIn(proxyBase, TEST_ADMIN.email, TEST_ADMIN.password, '/providers?tab=1');
      t.equal(loginUrl.origin, issuer, 'without a session the browser lands on the IdP');
      t.equal(done.url.href, `${proxyBase}/providers?tab=1`, 'back on the original page');
      t.equal(done.res.status, 200);
      const seen = await identityOf(done.res);
      t.match(seen, { 'x-forwarded-user': 'admin', 'x-forwarded-preferred-username': 'admin', 'x-forwarded-email': TEST_ADMIN.email, 'x-forwarded-groups': 'admin', 'x-forwarded-tenant-id': 'acme' });
      t.match(seen['x-palisade-identity-signature'], /^t=\d+,v1=/);
      const cookie = [...(agent.jar.get(new URL(proxyBase).host)?.keys() ?? [])];
      t.same(cookie, ['_palisade_session'], 'one session cookie; the login cookie is gone');

      const spoofed = await agent.fetch(`${proxyBase}/`, { headers: { ...HTML, 'x-forwarded-user': 'mallory', 'x-forwarded-groups': 'super-admin', 'x-forwarded-tenant-id': 'globex', 'x-palisade-proxy-secret': 'guess' } });
      const seenSpoofed = await identityOf(spoofed);
      t.match(seenSpoofed, { 'x-forwarded-user': 'admin', 'x-forwarded-groups': 'admin', 'x-forwarded-tenant-id': 'acme' }, 'client identity headers are replaced');
      t.notOk(seenSpoofed['x-palisade-proxy-secret'], 'a client-sent proof header is dropped');

      const users = await agent.fetch(`${proxyBase}/api/v1/users`);
      t.equal(users.status, 200, 'an Admin API call through the proxy carries the identity');
      t.ok(((await users.json()) as Array<{ email: string }>).some((u) => u.email === TEST_ADMIN.email));
      const info = await agent.fetch(`${proxyBase}/oauth2/userinfo`);
      t.match(await info.json(), { user: 'admin', email: TEST_ADMIN.email, groups: ['admin'], preferredUsername: 'admin', tenant_id: 'acme' });

      const direct = await fetch(`${apiBase}/api/v1/users`, { headers: { 'x-forwarded-user': 'admin', 'x-forwarded-groups': 'admin', 'x-forwarded-tenant-id': 'acme' } });
      t.equal(direct.status, 401, 'spoofed headers straight to the Admin API are refused');

      const out = await agent.fetch(`${proxyBase}/oauth2/sign_out`);
      t.equal(out.status, 302);
      t.match(out.headers.get('location'), new RegExp(`^${issuer}/session/end\\?.*id_token_hint=`), 'sign-out ends the IdP session too');
      t.equal((await agent.fetch(`${proxyBase}/api/v1/users`)).status, 401, 'no session after sign-out');
    });

    t.test('bad input: no session, tampered cookie, forged callback', async (t) => {
      t.equal((await fetch(`${proxyBase}/api/v1/users`)).status, 401, 'an API call without a session is 401, not a redirect');
      const page = await fetch(`${proxyBase}/x`, { headers: HTML, redirect: 'manual' });
      t.equal(page.headers.get('location'), '/oauth2/sign_in?rd=%2Fx');
      const { agent } = await signIn(proxyBase, 'admin', TEST_ADMIN.password);
      const jar = agent.jar.get(new URL(proxyBase).host)!;
      const good = jar.get('_palisade_session')!;
      jar.set('_palisade_session', good.slice(0, -4) + (good.endsWith('AAAA') ? 'BBBB' : 'AAAA'));
      t.equal((await agent.fetch(`${proxyBase}/api/v1/users`)).status, 401, 'a tampered cookie is no session');
      jar.set('_palisade_session', good);

      const forged = await fetch(`${proxyBase}/oauth2/callback?code=abc&state=xyz`);
      t.equal(forged.status, 400, 'a callback without its login cookie');
      const fresh = createUserAgent();
      await fresh.fetch(`${proxyBase}/oauth2/sign_in`);
      const wrongState = await fresh.fetch(`${proxyBase}/oauth2/callback?code=abc&state=forged`);
      t.equal(wrongState.status, 401, 'a forged state');
      t.match(await wrongState.text(), /Sign-in failed/);
      t.notOk(fresh.jar.get(new URL(proxyBase).host)?.has('_palisade_session'), 'never a session');
      const replay = await fresh.fetch(`${proxyBase}/oauth2/callback?code=abc&state=forged`);
      t.equal(replay.status, 400, 'the login cookie is single-use');
    });

    t.test('bearer tokens', async (t) => {
      const config = await oidc.discovery(new URL(issuer), 'admin-api', undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });
      const tokens = await oidc.genericGrantRequest(config, 'password', { username: 'admin', password: TEST_ADMIN.password, scope: 'openid' });
      const bearer = (token: string) => fetch(`${proxyBase}/api/v1/users`, { headers: { authorization: `Bearer ${token}` } });
      t.equal((await bearer(tokens.access_token)).status, 200, 'a valid access token');
      t.equal((await bearer(tokens.access_token.slice(0, -3) + 'xyz')).status, 401, 'a bad signature');
      t.equal((await bearer(tokens.id_token!)).status, 401, 'an ID token (same issuer and audience) is not an access token');
      const { privateKey } = await generateKeyPair('RS256');
      const foreign = await new SignJWT({ preferred_username: 'admin', groups: ['admin'], tenant_id: 'acme' }).setProtectedHeader({ alg: 'RS256', kid: 'x' }).setIssuer(issuer).setAudience('admin-api').setExpirationTime('5m').sign(privateKey);
      t.equal((await bearer(foreign)).status, 401, 'a token signed by another key');
      const other = await startLoginStack(t, db, { AUTH_PROXY_AUDIENCE: 'someone-else' });
      t.equal((await fetch(`${other.proxyBase}/api/v1/users`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status, 401, 'a wrong audience');
    });

    t.test('viewer, disabled user, expired session', async (t) => {
      const viewer = await identity.createUser({ username: 'vic', email: 'vic@acme.test', password: 'vic-pass-12', first_name: 'Vic', last_name: 'V', tenant_id: 'acme' });
      await identity.assignRole(viewer.id, 'viewer');
      const { agent } = await signIn(proxyBase, 'vic', 'vic-pass-12');
      t.equal((await agent.fetch(`${proxyBase}/api/v1/providers`)).status, 200, 'a viewer reads');
      t.equal((await agent.fetch(`${proxyBase}/api/v1/users`)).status, 403, 'a viewer is refused the user endpoints');
      await identity.setEnabled(viewer.id, false);
      t.equal((await agent.fetch(`${proxyBase}/api/v1/providers`)).status, 401, "a disabled user's session ends at the next refresh");
      await identity.setEnabled(viewer.id, true);

      let clock = Date.now();
      const short = await startLoginStack(t, db, { AUTH_PROXY_COOKIE_EXPIRE_MINUTES: '1', AUTH_PROXY_COOKIE_REFRESH_SECONDS: '3600' }, { now: () => clock });
      const session = await signIn(short.proxyBase, 'vic', 'vic-pass-12');
      t.equal(session.done.res.status, 200);
      t.equal((await session.agent.fetch(`${short.proxyBase}/api/v1/providers`)).status, 200);
      // The session's age is checked inside the encrypted cookie, not only by the browser's Max-Age.
      clock += 2 * 60_000;
      t.equal((await session.agent.fetch(`${short.proxyBase}/api/v1/providers`)).status, 401, 'an expired session is no session');
      const again = await session.agent.fetch(`${short.proxyBase}/providers`, { headers: HTML });
      t.equal(again.headers.get('location'), '/oauth2/sign_in?rd=%2Fproviders', 'the browser is sent to log in again');
    });
  });
});
