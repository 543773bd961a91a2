import t from 'tap';
import { createMemoryStreams } from '@palisade/core';
import { DEFAULT_OAUTH_CLIENT, DEFAULT_SCOPE } from '@palisade/mock-llm';
import { basicCredentials, oauthCacheKey, tokenExpiresAt, tokenUsableUntil, type OAuthClientCredentials } from './auth.js';
import { createUpstreamClient } from './client.js';
import { chatBody, expectPalisadeError, freePort, startHarness, startRawServer } from '../testing/upstream.js';

const oauthFor = (base: string, over: Partial<OAuthClientCredentials> = {}): OAuthClientCredentials => ({
  type: 'oauth2_client_credentials',
  token_url: `${base}/api/v2/oauth`,
  client_id: DEFAULT_OAUTH_CLIENT.clientId,
  client_secret: DEFAULT_OAUTH_CLIENT.clientSecret,
  scope: DEFAULT_SCOPE,
  ...over,
});

t.test('token expiry: expires_in seconds, expires_at in ms or s, or unknown', async (t) => {
  const now = 1_700_000_000_000;
  t.equal(tokenExpiresAt({ expires_in: 1800 }, now), now + 1_800_000);
  t.equal(tokenExpiresAt({ expires_in: '60' }, now), now + 60_000);
  t.equal(tokenExpiresAt({ expires_at: now + 5000 }, now), now + 5000, 'ms epoch');
  t.equal(tokenExpiresAt({ expires_at: 1_700_000_600 }, now), 1_700_000_600_000, 's epoch');
  t.equal(tokenExpiresAt({ expires_in: 30, expires_at: 1 }, now), now + 30_000, 'expires_in wins');
  t.equal(tokenExpiresAt({}, now), undefined);
  t.equal(tokenExpiresAt({ expires_in: 'soon' }, now), undefined);
});

t.test('a token is reused until min(60 s, 10 %) before expiry', async (t) => {
  const now = 1_000_000;
  t.equal(tokenUsableUntil(now + 30 * 60_000, now), now + 29 * 60_000);
  t.equal(tokenUsableUntil(now + 5 * 60_000, now), now + 5 * 60_000 - 30_000);
  t.equal(tokenUsableUntil(now, now), now);
});

t.test('the cache key hashes token_url, client_id and scope; never the secret', async (t) => {
  const a = oauthCacheKey({ token_url: 'https://idp/token', client_id: 'id', scope: 's1' });
  t.match(a, /^upstream-oauth:[0-9a-f]{64}$/);
  t.equal(a, oauthCacheKey({ token_url: 'https://idp/token', client_id: 'id', scope: 's1' }));
  t.not(a, oauthCacheKey({ token_url: 'https://idp/token', client_id: 'id', scope: 's2' }));
  t.not(a, oauthCacheKey({ token_url: 'https://idp/token', client_id: 'id2', scope: 's1' }));
  t.notMatch(a, /id|idp/);
});

t.test('Basic client credentials are form-encoded (RFC 6749 2.3.1)', async (t) => {
  const value = basicCredentials('my id', 'p:ss+%');
  t.equal(Buffer.from(value.replace(/^Basic /, ''), 'base64').toString('utf8'), 'my+id:p%3Ass%2B%25');
});

t.test('vendor_i OAuth: the first call fetches a token, later calls reuse it from the cache', async (t) => {
  const { mock, url, client, cache } = await startHarness(t);
  const auth = oauthFor(url);
  const first = await client.send({ url: `${url}/api/v1/chat/completions`, body: chatBody('hi giga'), timeoutMs: 5000, auth, clientAuthorization: 'Bearer client' });
  t.equal(first.status, 200);
  t.equal(JSON.parse(first.text ?? '').choices[0].message.content, 'Echo: hi giga');
  t.equal(mock.oauth.issuedCount, 1);

  const tokenRequest = mock.requests.find((r) => r.route === 'vendor_i.oauth');
  t.match(tokenRequest?.headers.authorization, /^Basic /);
  t.match(tokenRequest?.headers['content-type'], /application\/x-www-form-urlencoded/);
  t.match(tokenRequest?.body, { grant_type: 'client_credentials', scope: DEFAULT_SCOPE, client_id: DEFAULT_OAUTH_CLIENT.clientId });
  t.notOk(tokenRequest?.rawBody.includes(DEFAULT_OAUTH_CLIENT.clientSecret), 'the secret is not in the form');
  const chat = mock.requests.find((r) => r.route === 'vendor_i.chat');
  t.match(chat?.headers.authorization, /^Bearer mock-at-/, 'the token replaces the client credential');

  const stored = await cache.get(oauthCacheKey(auth));
  t.ok(stored, 'token cached under the hashed key');
  t.notOk(stored?.includes(DEFAULT_OAUTH_CLIENT.clientSecret));

  for (let i = 0; i < 3; i += 1) {
    const res = await client.send({ url: `${url}/api/v1/chat/completions`, body: chatBody('again'), timeoutMs: 5000, auth });
    t.equal(res.status, 200);
  }
  t.equal(mock.oauth.issuedCount, 1, 'no further token requests');

  // A second client (another replica) sharing the cache uses the same token.
  const replica = createUpstreamClient({ cache });
  t.teardown(() => replica.close());
  t.equal((await replica.send({ url: `${url}/api/v1/chat/completions`, body: chatBody('replica'), timeoutMs: 5000, auth })).status, 200);
  t.equal(mock.oauth.issuedCount, 1, 'the replica found the token in the shared cache');
});

t.test('20 concurrent first calls fetch one token', async (t) => {
  const { mock, url, client } = await startHarness(t);
  const auth = oauthFor(url);
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) => client.send({ url: `${url}/api/v1/chat/completions`, body: chatBody(`c${i}`), timeoutMs: 5000, auth })),
  );
  t.same(answers.map((a) => a.status), Array(20).fill(200));
  t.equal(mock.oauth.issuedCount, 1);
});

t.test('a revoked token is refetched once on 401 and the request succeeds', async (t) => {
  const { mock, url, client } = await startHarness(t);
  const auth = oauthFor(url);
  t.equal((await client.send({ url: `${url}/api/v1/chat/completions`, body: chatBody('one'), timeoutMs: 5000, auth })).status, 200);
  t.equal(mock.oauth.issuedCount, 1);

  mock.oauth.revokeAll();
  const res = await client.send({ url: `${url}/api/v1/chat/completions`, body: chatBody('two'), timeoutMs: 5000, auth });
  t.equal(res.status, 200);
  t.equal(res.attempts, 2);
  t.equal(JSON.parse(res.text ?? '').choices[0].message.content, 'Echo: two');
  t.equal(mock.oauth.issuedCount, 2);

  // 20 concurrent requests all refused with the same revoked token: one refetch between them.
  mock.oauth.revokeAll();
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) => client.send({ url: `${url}/api/v1/chat/completions`, body: chatBody(`r${i}`), timeoutMs: 5000, auth })),
  );
  t.same(answers.map((a) => a.status), Array(20).fill(200));
  t.equal(mock.oauth.issuedCount, 3);
});

t.test('a 401 that persists is retried once, then returned', async (t) => {
  const { mock, url, client } = await startHarness(t);
  const auth = oauthFor(url);
  const res = await client.send({ url: `${url}/api/v1/chat/completions`, headers: { 'x-mock-status': '401' }, body: chatBody('x'), timeoutMs: 5000, auth });
  t.equal(res.status, 401);
  t.equal(res.attempts, 2);
  t.equal(mock.oauth.issuedCount, 2);
  t.equal(mock.requests.filter((r) => r.route === 'vendor_i.chat').length, 2);
});

t.test('a 401 without OAuth is not retried', async (t) => {
  const { mock, url, client } = await startHarness(t);
  const res = await client.send({ url: `${url}/v1/chat/completions`, headers: { 'x-mock-status': '401' }, body: chatBody('x'), timeoutMs: 5000, auth: { type: 'bearer', token: 't' } });
  t.equal(res.status, 401);
  t.equal(res.attempts, 1);
  t.equal(mock.requests.length, 1);
});

t.test('a wrong client secret gives 502 naming the token endpoint, never the secret', async (t) => {
  const { mock, url, client } = await startHarness(t);
  const auth = oauthFor(url, { client_secret: 'wrong-secret-value' });
  const { error } = await expectPalisadeError(() => client.send({ url: `${url}/api/v1/chat/completions`, body: chatBody('x'), timeoutMs: 5000, auth }));
  t.equal(error.code, 'LLM_REQUEST_FAILED');
  t.equal(error.status, 502);
  t.match(error.message, `OAuth token endpoint ${url}/api/v2/oauth answered 401 (invalid_client)`);
  t.notMatch(error.message, /wrong-secret-value/);
  t.equal(mock.requests.filter((r) => r.route === 'vendor_i.chat').length, 0, 'the chat was not called');
});

t.test('an unreachable token endpoint gives 502 naming it', async (t) => {
  const { url, client } = await startHarness(t);
  const port = await freePort();
  const auth = oauthFor(url, { token_url: `http://127.0.0.1:${port}/oauth/token?tenant=x` });
  const { error } = await expectPalisadeError(() => client.send({ url: `${url}/api/v1/chat/completions`, body: chatBody('x'), timeoutMs: 5000, auth }));
  t.equal(error.code, 'LLM_REQUEST_FAILED');
  t.match(error.message, `OAuth token endpoint http://127.0.0.1:${port}/oauth/token unreachable`);
  t.match(error.message, /ECONNREFUSED/);
});

t.test('a token endpoint slower than the request deadline gives 504', async (t) => {
  const { url, client } = await startHarness(t);
  const idp = await startRawServer(t, () => undefined); // never answers
  const auth = oauthFor(url, { token_url: `${idp.url}/token` });
  const { error, elapsedMs } = await expectPalisadeError(() => client.send({ url: `${url}/api/v1/chat/completions`, body: chatBody('x'), timeoutMs: 300, auth }));
  t.equal(error.code, 'LLM_TIMEOUT');
  t.ok(elapsedMs < 1500);
});

t.test('expires_at-only answers (ms or s) and 200s without a token', async (t) => {
  let answer: Record<string, unknown> = {};
  let calls = 0;
  const idp = await startRawServer(t, (_req, res) => {
    calls += 1;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer));
  });
  const backend = await startRawServer(t, (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ auth: req.headers.authorization }));
  });
  let now = Date.now();
  const streams = createMemoryStreams();
  const client = createUpstreamClient({ cache: streams.cache, clock: { now: () => now } });
  t.teardown(async () => {
    await client.close();
    await streams.close();
  });
  const auth = oauthFor(idp.url, { token_url: `${idp.url}/token`, scope: undefined });
  const send = () => client.send({ url: `${backend.url}/chat`, body: '{}', timeoutMs: 5000, auth });

  answer = { access_token: 'tok-ms', expires_at: now + 10 * 60_000 };
  t.equal(JSON.parse((await send()).text ?? '').auth, 'Bearer tok-ms');
  answer = { access_token: 'tok-s', expires_at: Math.floor(now / 1000) + 600 };
  t.equal(JSON.parse((await send()).text ?? '').auth, 'Bearer tok-ms', 'cached');
  now += 9 * 60_000 + 1; // past expiry − 60 s
  t.equal(JSON.parse((await send()).text ?? '').auth, 'Bearer tok-s', 'refetched shortly before expiry');
  t.equal(calls, 2);

  answer = { token_type: 'bearer' };
  now += 10 * 60_000;
  const { error } = await expectPalisadeError(send);
  t.match(error.message, /answered 200 without an access_token/);
});

t.test('vendor_i streams through OAuth like vendor_a', async (t) => {
  const { url, client } = await startHarness(t);
  const auth = oauthFor(url);
  const plain = await client.send({ url: `${url}/api/v1/chat/completions`, body: chatBody('stream via oauth'), timeoutMs: 5000, auth });
  const streamed = await client.send({ url: `${url}/api/v1/chat/completions`, body: chatBody('stream via oauth', { stream: true }), timeoutMs: 5000, auth });
  t.equal(streamed.isEventStream, true);
  t.equal(streamed.streamComplete, true);
  t.equal(streamed.assembled, JSON.parse(plain.text ?? '').choices[0].message.content);
});
