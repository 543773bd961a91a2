// Protocol tests of `palisade idp` with openid-client as the relying party, on PGlite and PostgreSQL.
import t from 'tap';
import * as oidc from 'openid-client';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { createSecretBox } from '@palisade/core';
import { forEachDatabase } from '@palisade/core/testing';
import { createUserAgent, formOf, startTestIdp, TEST_ADMIN } from '../testing/oidc.js';
import { rotateSigningKey } from './signing-keys.js';

/** The OAuth error a refused call rejected with ({} when it did not reject). */
const failure = (p: Promise<unknown>): Promise<Record<string, unknown>> => p.then(() => ({}), (e: Record<string, unknown>) => e);

const CALLBACK = 'http://127.0.0.1:1/oauth2/callback';

async function discover(issuer: string) {
  return oidc.discovery(new URL(issuer), 'admin-api', undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });
}

/** The code flow as a browser does it, up to the redirect to the callback (not fetched). */
async function codeFlow(config: oidc.Configuration, login: string, password: string, extra: Record<string, string> = {}) {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: CALLBACK,
    scope: 'openid profile email',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...extra,
  });
  const agent = createUserAgent();
  const page = await agent.follow(url);
  const html = await page.res.text();
  const form = formOf(html);
  const submitted = await agent.follow(new URL(form.action, page.url), { method: 'POST', form: { csrf: form.csrf, login, password } }, (to) => to.href.startsWith(CALLBACK));
  return { agent, verifier, state, nonce, submitted, loginPage: html };
}

t.test('identity provider', async (t) => {
  await forEachDatabase(t, async (t, db) => {
    const { issuer, identity, initialAdmin } = await startTestIdp(t, db);
    t.match(initialAdmin, { email: TEST_ADMIN.email, created: true });
    t.notOk(initialAdmin.generatedPassword, 'the configured password is used, nothing is printed');
    const config = await discover(issuer);
    const meta = config.serverMetadata();

    t.test('discovery', async (t) => {
      t.equal(meta.issuer, issuer);
      t.ok(meta.jwks_uri && meta.token_endpoint && meta.userinfo_endpoint && meta.end_session_endpoint);
      t.ok(meta.grant_types_supported?.includes('password'), 'direct access grants');
      t.same(meta.code_challenge_methods_supported, ['S256']);
      t.ok(meta.claims_supported?.includes('tenant_id') && meta.claims_supported?.includes('groups'));
    });

    t.test('code + PKCE, claims, userinfo, refresh, JWT access token', async (t) => {
      const flow = await codeFlow(config, TEST_ADMIN.email, TEST_ADMIN.password);
      t.match(flow.loginPage, /<html lang="en">/);
      t.ok(flow.submitted.stopped, 'redirected to the callback');
      const tokens = await oidc.authorizationCodeGrant(config, flow.submitted.url, { pkceCodeVerifier: flow.verifier, expectedState: flow.state, expectedNonce: flow.nonce });
      const claims = tokens.claims()!;
      t.match(claims, { iss: issuer, aud: 'admin-api', preferred_username: 'admin', email: TEST_ADMIN.email, groups: ['admin'], tenant_id: 'acme' });
      const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
      t.match(info, { preferred_username: 'admin', email: TEST_ADMIN.email, groups: ['admin'], tenant_id: 'acme' });
      t.ok(tokens.refresh_token, 'a refresh token');
      const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
      t.match(refreshed.claims(), { sub: claims.sub, tenant_id: 'acme' });
      t.not(refreshed.refresh_token, tokens.refresh_token, 'refresh tokens rotate');
      t.match(await failure(oidc.refreshTokenGrant(config, tokens.refresh_token!)), { error: 'invalid_grant' }, 'a used refresh token is dead');
      t.match(await failure(oidc.authorizationCodeGrant(config, flow.submitted.url, { pkceCodeVerifier: flow.verifier, expectedState: flow.state, expectedNonce: flow.nonce })), { error: 'invalid_grant' }, 'a code works once');

      const withResource = await codeFlow(config, 'admin', TEST_ADMIN.password);
      const api = await oidc.authorizationCodeGrant(config, withResource.submitted.url, { pkceCodeVerifier: withResource.verifier, expectedState: withResource.state, expectedNonce: withResource.nonce }, { resource: 'urn:palisade:admin-api' });
      const jwks = createRemoteJWKSet(new URL(meta.jwks_uri!));
      const { payload } = await jwtVerify(api.access_token, jwks, { issuer, audience: 'admin-api' });
      t.match(payload, { preferred_username: 'admin', email: TEST_ADMIN.email, groups: ['admin'], tenant_id: 'acme', client_id: 'admin-api' });
      await t.rejects(jwtVerify(api.access_token, jwks, { issuer, audience: 'other' }), 'a wrong audience does not verify');
    });

    t.test('login form: bad input', async (t) => {
      const flow = await codeFlow(config, TEST_ADMIN.email, 'wrong password');
      t.equal(flow.submitted.res.status, 401);
      t.match(await flow.submitted.res.text(), /Invalid username or password/);
      const unknown = await codeFlow(config, 'nobody@acme.test', 'whatever1');
      t.equal(unknown.submitted.res.status, 401, 'unknown user: the same answer');
      const ru = createUserAgent();
      const verifier = oidc.randomPKCECodeVerifier();
      const url = oidc.buildAuthorizationUrl(config, { redirect_uri: CALLBACK, scope: 'openid', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: 's' });
      const page = await ru.follow(url, { headers: { 'accept-language': 'ru-RU,ru;q=0.9,en;q=0.5' } });
      const html = await page.res.text();
      t.match(html, /<html lang="ru">/);
      t.match(html, /Вход в Palisade/);
      const form = formOf(html);
      const noCsrf = await ru.fetch(new URL(form.action, page.url), { method: 'POST', form: { login: 'admin', password: TEST_ADMIN.password } });
      t.equal(noCsrf.status, 403, 'a form without its CSRF token is refused');
      const stranger = await createUserAgent().fetch(new URL(form.action, page.url), { method: 'POST', form: { csrf: form.csrf, login: 'admin', password: TEST_ADMIN.password } });
      t.equal(stranger.status, 400, 'a form posted without the interaction cookie is refused');
      const noPkce = await createUserAgent().follow(oidc.buildAuthorizationUrl(config, { redirect_uri: CALLBACK, scope: 'openid', state: 's' }), {}, (to) => to.href.startsWith(CALLBACK));
      t.match(noPkce.url.searchParams.get('error'), 'invalid_request', 'PKCE is required');
      const badRedirect = await createUserAgent().follow(oidc.buildAuthorizationUrl(config, { redirect_uri: 'http://evil.test/cb', scope: 'openid', code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' }));
      t.equal(badRedirect.res.status, 400, 'an unregistered redirect URI gets an error page');
    });

    t.test('password grant, lockout, disabled user, temporary password', async (t) => {
      const viewer = await identity.createUser({ username: 'vera', email: 'vera@acme.test', password: 'vera-pass-1', first_name: 'Vera', last_name: 'V', tenant_id: 'acme' });
      await identity.assignRole(viewer.id, 'viewer');
      const direct = await oidc.genericGrantRequest(config, 'password', { username: 'vera', password: 'vera-pass-1', scope: 'openid profile email' });
      t.match(direct.claims(), { preferred_username: 'vera', groups: ['viewer'], tenant_id: 'acme' });
      const jwks = createRemoteJWKSet(new URL(meta.jwks_uri!));
      t.match((await jwtVerify(direct.access_token, jwks, { issuer, audience: 'admin-api' })).payload, { groups: ['viewer'] });

      t.match(await failure(oidc.genericGrantRequest(config, 'password', { username: 'vera', password: 'nope' })), { error: 'invalid_grant' });
      for (let i = 0; i < 4; i++) await oidc.genericGrantRequest(config, 'password', { username: 'vera@acme.test', password: 'nope' }).catch(() => undefined);
      t.match(await failure(oidc.genericGrantRequest(config, 'password', { username: 'vera', password: 'vera-pass-1' })), { error: 'invalid_grant', error_description: /too many failed attempts/ }, 'locked after 5 misses, by username or e-mail');
      const locked = await codeFlow(config, 'vera', 'vera-pass-1');
      t.equal(locked.submitted.res.status, 429, 'the login form is locked too');
      await db.query("DELETE FROM login_failures WHERE key LIKE 'user:%'");

      await identity.setEnabled(viewer.id, false);
      t.match(await failure(oidc.refreshTokenGrant(config, direct.refresh_token!)), { error: 'invalid_grant' }, 'disabling ends the sessions');
      t.match(await failure(oidc.genericGrantRequest(config, 'password', { username: 'vera', password: 'vera-pass-1' })), { error: 'invalid_grant', error_description: /disabled/ });
      const disabled = await codeFlow(config, 'vera', 'vera-pass-1');
      t.equal(disabled.submitted.res.status, 403);
      await identity.setEnabled(viewer.id, true);

      await identity.resetPassword(viewer.id, 'temporary-1', true);
      t.match(await failure(oidc.genericGrantRequest(config, 'password', { username: 'vera', password: 'temporary-1' })), { error: 'invalid_grant', error_description: /temporary password/ });
      const reset = await codeFlow(config, 'vera', 'temporary-1');
      t.equal(reset.submitted.res.status, 200);
      const changeHtml = await reset.submitted.res.text();
      t.match(changeHtml, /Change your password/);
      const change = formOf(changeHtml);
      const same = await reset.agent.fetch(new URL(change.action, reset.submitted.url), { method: 'POST', form: { csrf: change.csrf, new_password: 'temporary-1', confirm_password: 'temporary-1' } });
      t.equal(same.status, 400, 'the temporary password cannot be kept');
      const done = await reset.agent.follow(new URL(change.action, reset.submitted.url), { method: 'POST', form: { csrf: change.csrf, new_password: 'vera-new-pass', confirm_password: 'vera-new-pass' } }, (to) => to.href.startsWith(CALLBACK));
      t.ok(done.stopped, 'after the change the login completes');
      const tokens = await oidc.authorizationCodeGrant(config, done.url, { pkceCodeVerifier: reset.verifier, expectedState: reset.state, expectedNonce: reset.nonce });
      t.equal(tokens.claims()?.preferred_username, 'vera');
      t.ok(await identity.verifyPassword('vera', 'vera-new-pass'));
    });

    t.test('signing key rotation', async (t) => {
      const before = await oidc.genericGrantRequest(config, 'password', { username: 'admin', password: TEST_ADMIN.password, scope: 'openid' });
      const oldKid = decodeProtectedHeader(before.id_token!).kid;
      const newKid = await rotateSigningKey({ db, secrets: createSecretBox('test-key') });
      const restarted = await startTestIdp(t, db);
      const next = await discover(restarted.issuer);
      const keys = (await (await fetch(next.serverMetadata().jwks_uri!)).json()) as { keys: Array<{ kid: string; d?: string }> };
      t.same(keys.keys.map((k) => k.kid).sort(), [oldKid, newKid].sort(), 'both keys are published');
      t.notOk(keys.keys.some((k) => k.d), 'no private part is published');
      const after = await oidc.genericGrantRequest(next, 'password', { username: 'admin', password: TEST_ADMIN.password, scope: 'openid' });
      t.equal(decodeProtectedHeader(after.id_token!).kid, newKid, 'the new key signs');
      const jwks = createRemoteJWKSet(new URL(next.serverMetadata().jwks_uri!));
      await jwtVerify(before.access_token, jwks, { issuer, audience: 'admin-api' }).then(() => t.pass('a token of the old key still verifies'));
      const sealed = await db.query<{ sealed_jwk: string }>('SELECT sealed_jwk FROM oidc_signing_keys');
      t.ok(sealed.rows.every((r) => r.sealed_jwk.startsWith('enc:v1:')), 'private keys are sealed at rest');
      t.match(restarted.initialAdmin, { created: false }, 'the initial admin is created once');
    });
  });
});
