// Bearer verification against the real IdP on loopback: a verified token is cached, but never past its
// own expiry nor past the cache's limit, and a token that did not verify is never cached.
import t from 'tap';
import * as oidc from 'openid-client';
import { forOneDatabase } from '@palisade/core/testing';
import { startTestIdp, TEST_ADMIN } from '../testing/oidc.js';
import { createRelyingParty, VERIFIED_TOKEN_TTL_MS } from './relying-party.js';

t.test('bearer verification and its cache', async (t) => {
  await forOneDatabase(t, async (t, db) => {
    const { issuer } = await startTestIdp(t, db);
    const config = await oidc.discovery(new URL(issuer), 'admin-api', undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });
    const grant = () => oidc.genericGrantRequest(config, 'password', { username: 'admin', password: TEST_ADMIN.password, scope: 'openid' });
    let clock = Date.now();
    const rp = createRelyingParty({ issuer, clientId: 'admin-api', redirectUri: `${issuer}/cb`, scopes: 'openid', audience: 'admin-api', now: () => clock });

    const { access_token: token, expires_in: lifetimeS } = await grant();
    t.ok(lifetimeS! * 1000 > VERIFIED_TOKEN_TTL_MS, 'the IdP grants tokens that outlive the cache, so both limits are reached below');
    const claims = await rp.verifyBearer(token);
    t.equal(claims.preferred_username, 'admin');
    t.same(await rp.verifyBearer(token), claims, 'the same token again');

    const tampered = token.slice(0, -3) + (token.endsWith('xyz') ? 'abc' : 'xyz');
    await t.rejects(rp.verifyBearer(tampered), 'a bad signature');
    await t.rejects(rp.verifyBearer(tampered), 'and again: a refusal is not cached');

    clock += VERIFIED_TOKEN_TTL_MS + 1;
    t.same(await rp.verifyBearer(token), claims, 'past the cache limit the token is verified again, and still valid');

    clock = (claims.exp as number) * 1000 + 6_000;
    await t.rejects(rp.verifyBearer(token), 'past its expiry (and the 5 s tolerance) a cached token is refused');

    const fresh = await grant();
    const expiresAt = (JSON.parse(Buffer.from(fresh.access_token.split('.')[1]!, 'base64url').toString()) as { exp: number }).exp * 1000;
    clock = expiresAt - 30_000;
    t.equal((await rp.verifyBearer(fresh.access_token)).preferred_username, 'admin', 'verified 30 s before its expiry');
    clock = expiresAt + 6_000;
    await t.rejects(rp.verifyBearer(fresh.access_token), 'and refused 36 s later, within the cache limit: the cache keeps no token past its expiry');
  });
});
