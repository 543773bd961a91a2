// vendor_i: OAuth 2.0 client credentials, then a chat that needs a live token it issued.
import t from 'tap';
import { call, startMock } from './testing/index.js';

const basic = (id: string, secret: string): string => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const form = { 'content-type': 'application/x-www-form-urlencoded' };
const chatBody = { model: 'GigaChat', messages: [{ role: 'user', content: 'zdravstvuy' }] };

t.test('GigaChat form: Basic auth + scope; token opens the chat', async (t) => {
  const { url, mock } = await startMock(t);
  const wrong = await call(`${url}/api/v2/oauth`, { body: 'scope=GIGACHAT_API_PERS', headers: { ...form, authorization: basic('mock-client', 'nope'), rquid: 'x' } });
  t.equal(wrong.status, 401, 'wrong secret is 401');
  t.equal(wrong.json.error, 'invalid_client');
  t.equal(mock.oauth.issuedCount, 0);

  const before = Date.now();
  const ok = await call(`${url}/api/v2/oauth`, { body: 'scope=GIGACHAT_API_PERS', headers: { ...form, authorization: basic('mock-client', 'mock-secret') } });
  t.equal(ok.status, 200);
  t.type(ok.json.access_token, 'string');
  t.ok(ok.json.expires_at >= before + 29 * 60_000, 'expires_at is a ms epoch about 30 min ahead');
  t.ok(ok.json.expires_in > 1700 && ok.json.expires_in <= 1800, 'expires_in in seconds');
  t.equal(ok.json.token_type, 'Bearer');
  t.equal(ok.json.scope, 'GIGACHAT_API_PERS');
  t.equal(mock.oauth.issuedCount, 1, 'issuances are counted');

  const chat = await call(`${url}/api/v1/chat/completions`, { body: chatBody, headers: { authorization: `Bearer ${ok.json.access_token}` } });
  t.equal(chat.status, 200);
  t.equal(chat.json.object, 'chat.completion');
  t.equal(chat.json.model, 'GigaChat');
  t.equal(chat.json.choices[0].message.content, 'Echo: zdravstvuy');

  const noToken = await call(`${url}/api/v1/chat/completions`, { body: chatBody });
  t.equal(noToken.status, 401);
  const forged = await call(`${url}/api/v1/chat/completions`, { body: chatBody, headers: { authorization: 'Bearer not-issued' } });
  t.equal(forged.status, 401);
  t.same(forged.json, { status: 401, message: 'Token has expired or is invalid' });
});

t.test('RFC 6749 form: grant_type=client_credentials with credentials in the body', async (t) => {
  const { url, mock } = await startMock(t, { oauth: { clients: [{ clientId: 'svc', clientSecret: 's3cr3t' }] } });
  const body = new URLSearchParams({ grant_type: 'client_credentials', client_id: 'svc', client_secret: 's3cr3t', scope: 'chat' }).toString();
  const ok = await call(`${url}/oauth/token`, { body, headers: form });
  t.equal(ok.status, 200);
  t.equal(ok.json.scope, 'chat');
  const alsoGiga = await call(`${url}/api/v2/oauth`, { body, headers: form });
  t.equal(alsoGiga.status, 200, 'the GigaChat path accepts the standard form too');
  t.equal(mock.oauth.issuedCount, 2);
  const badGrant = await call(`${url}/oauth/token`, { body: body.replace('client_credentials', 'password'), headers: form });
  t.equal(badGrant.status, 400);
  t.equal(badGrant.json.error, 'unsupported_grant_type');
  const missing = await call(`${url}/oauth/token`, { body: 'scope=x', headers: form });
  t.equal(missing.status, 401);
  t.equal((await call(`${url}/oauth/token`, { body: body.replace('s3cr3t', 'bad'), headers: form })).status, 401);
});

t.test('an expired token is refused (short lifetime option)', async (t) => {
  const { url, mock } = await startMock(t, { oauth: { tokenTtlMs: 100 } });
  const ok = await call(`${url}/api/v2/oauth`, { body: 'scope=GIGACHAT_API_PERS', headers: { ...form, authorization: basic('mock-client', 'mock-secret') } });
  t.equal(ok.json.expires_in, 0, 'sub-second lifetime floors to 0 s; expires_at is exact');
  const headers = { authorization: `Bearer ${ok.json.access_token}` };
  t.equal((await call(`${url}/api/v1/chat/completions`, { body: chatBody, headers })).status, 200, 'fresh token works');
  await new Promise((r) => setTimeout(r, 150));
  const expired = await call(`${url}/api/v1/chat/completions`, { body: chatBody, headers });
  t.equal(expired.status, 401, 'expired token is 401');
  mock.reset();
  t.equal(mock.oauth.issuedCount, 0, 'reset() clears the counter');
});

t.test('injected clock drives expiry', async (t) => {
  let clock = 1_000_000;
  const { url, mock } = await startMock(t, { now: () => clock, oauth: { tokenTtlMs: 60_000 } });
  const ok = await call(`${url}/api/v2/oauth`, { body: 'scope=s', headers: { ...form, authorization: basic('mock-client', 'mock-secret') } });
  t.equal(ok.json.expires_at, 1_060_000);
  t.equal(ok.json.expires_in, 60);
  const headers = { authorization: `Bearer ${ok.json.access_token}` };
  clock += 59_999;
  t.equal((await call(`${url}/api/v1/chat/completions`, { body: chatBody, headers })).status, 200);
  clock += 1;
  t.equal((await call(`${url}/api/v1/chat/completions`, { body: chatBody, headers })).status, 401);
  mock.oauth.revokeAll();
});
