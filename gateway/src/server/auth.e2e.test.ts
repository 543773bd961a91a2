// AUTH_ENABLED=true: API keys from the registry, per-key sliding-window limits with the spec's
// headers, on Redis (with the real PostgreSQL) and in-process (with PGlite).
import t from 'tap';
import { createEventRepository } from '@palisade/core';
import { forOneDatabase } from '@palisade/core/testing';
import { startStack } from '../testing/stack.js';

const chat = { model: 'gpt-x', messages: [{ role: 'user', content: 'hi' }] };

t.test('gateway API keys and rate limits', async (t) => {
  await forOneDatabase(t, async (t, db) => {
    const stack = await startStack({
      db,
      streams: db.kind === 'postgres' ? 'redis' : 'memory',
      gatewayEnv: { AUTH_ENABLED: 'true', GATEWAY_RATE_LIMIT_PER_MINUTE: '3' },
    });
    t.teardown(() => stack.close());
    await stack.provider({ match_value: '/v1/chat/completions' });
    await stack.provider({ match_value: '/v1/chat/completions' }, 'acme');
    const key = async (body: Record<string, unknown>, tenant = 'default') => {
      const created = await stack.api('POST', '/api/v1/api-keys', body, tenant);
      t.equal(created.status, 201);
      await stack.synced();
      return created.json as { id: string; key: string };
    };
    stack.mock.reset();
    const send = (headers: Record<string, string>) => stack.call('POST', '/v1/chat/completions', { body: chat, headers });

    t.test('missing, malformed and unknown keys are 401 AUTHENTICATION_FAILED', async (t) => {
      for (const [what, headers] of [
        ['missing', {}],
        ['not bearer', { authorization: 'Basic dXNlcjpwYXNz' }],
        ['empty bearer', { authorization: 'Bearer ' }],
        ['unknown', { authorization: 'Bearer pk_unknown' }],
      ] as const) {
        const res = await send(headers);
        t.equal(res.status, 401, what);
        t.match(res.json.error, { code: 'AUTHENTICATION_FAILED', type: 'authentication_error' }, what);
        t.notOk(res.headers['x-ratelimit-limit'], `${what}: no rate-limit headers before a key is known`);
      }
    });

    t.test('a valid key passes with X-RateLimit-*; the 4th call in a minute is 429 with retry_after', async (t) => {
      const { key: clear } = await key({ name: 'default-limit' });
      const started = Date.now();
      for (let i = 1; i <= 3; i++) {
        const res = await send({ authorization: `Bearer ${clear}` });
        t.equal(res.status, 200, `call ${i}`);
        t.equal(res.headers['x-ratelimit-limit'], '3');
        t.equal(res.headers['x-ratelimit-remaining'], String(3 - i));
        const reset = Number(res.headers['x-ratelimit-reset']);
        t.ok(reset >= Math.floor(started / 1000) + 59 && reset <= Math.ceil(Date.now() / 1000) + 60, 'reset is a Unix timestamp about a minute ahead');
      }
      // Before routing the answer carries no trace id (spec), so the client names the request.
      const limitedTrace = `rate-${Date.now()}-${Math.random()}`;
      const limited = await send({ authorization: `Bearer ${clear}`, 'x-trace-id': limitedTrace });
      t.equal(limited.status, 429);
      t.match(limited.json.error, { code: 'RATE_LIMIT_EXCEEDED', type: 'rate_limit_error' });
      t.ok(limited.json.error.retry_after >= 1 && limited.json.error.retry_after <= 60, 'retry_after in seconds');
      t.equal(limited.headers['retry-after'], String(limited.json.error.retry_after));
      t.equal(limited.headers['x-ratelimit-remaining'], '0');
      t.notOk(stack.mock.requests.some((r) => r.headers.authorization === `Bearer ${clear}`), 'the gateway key is never sent to a provider');
      // The refusal is a RATE_LIMIT event of the key's tenant, under the answer's trace id.
      const traceId = limitedTrace;
      let stored: Array<{ event_type: string; severity: string; tenant_id: string }> = [];
      for (let i = 0; i < 200 && stored.length === 0; i++) {
        stored = (await createEventRepository(db).list({ trace_id: traceId })).items as unknown as typeof stored;
        if (stored.length === 0) await new Promise((r) => setTimeout(r, 50));
      }
      t.match(stored, [{ event_type: 'RATE_LIMIT', severity: 'LOW', tenant_id: 'default' }]);
    });

    t.test('a key with its own limit; keys are counted separately', async (t) => {
      const { key: one } = await key({ name: 'one-per-minute', rate_limit_per_minute: 1 });
      const { key: other } = await key({ name: 'other' });
      t.equal((await send({ authorization: `Bearer ${one}` })).headers['x-ratelimit-limit'], '1');
      t.equal((await send({ authorization: `Bearer ${one}` })).status, 429);
      t.equal((await send({ authorization: `Bearer ${other}` })).status, 200, 'another key is not affected');
    });

    t.test("the key's tenant routes; another tenant's header is refused; revocation applies on reload", async (t) => {
      const acme = await key({ name: 'acme-key' }, 'acme');
      const routed = await send({ authorization: `Bearer ${acme.key}` });
      t.equal(routed.status, 200, 'tenant acme from the key');
      const crossed = await send({ authorization: `Bearer ${acme.key}`, 'x-tenant-id': 'default' });
      t.equal(crossed.status, 401);
      await stack.api('PUT', `/api/v1/api-keys/${acme.id}`, { revoked: true }, 'acme');
      await stack.synced();
      t.equal((await send({ authorization: `Bearer ${acme.key}` })).status, 401, 'revoked');
    });
  });
});
