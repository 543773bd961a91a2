// The operational events of failed calls through the real gateway, event stream and event writer:
// PROVIDER_ERROR (the backend failed or answered 5xx), REQUEST_ERROR (a bad body, no route), with the
// request's trace id, and disabled_event_types applied with the profile.
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { createEventRepository, type Database } from '@palisade/core';
import { forOneDatabase } from '@palisade/core/testing';
import { startStack, type HttpResult, type Stack } from '../testing/stack.js';

const chat = (user: string) => ({ model: 'gpt-x', messages: [{ role: 'user', content: user }] });

async function withProfile(stack: Stack, settings: Record<string, unknown>) {
  const { provider, profile, send } = await stack.profiled(settings);
  return { provider, profile, send: (headers: Record<string, string> = {}, body: unknown = chat('hello')) => send(body, headers) };
}

function eventsOf(db: Database) {
  const repository = createEventRepository(db);
  return async (res: HttpResult, count: number) => {
    const traceId = String(res.headers['x-service-trace-id'] ?? res.json?.error?.trace_id);
    let items: Array<{ event_type: string; severity: string; action: string | null; provider_id: string | null; reasons: string[] }> = [];
    for (let i = 0; i < 200 && items.length < count; i++) {
      items = (await repository.list({ trace_id: traceId })).items as unknown as typeof items;
      if (items.length < count) await new Promise((r) => setTimeout(r, 50));
    }
    return items;
  };
}

t.test('operational events of failed calls', async (t) => {
  await forOneDatabase(t, async (t, db) => {
    const stack = await startStack({ db });
    t.teardown(() => stack.close());
    const events = eventsOf(db);

    t.test('the backend answers 503: the answer is passed on and PROVIDER_ERROR recorded', async (t) => {
      const { provider, send } = await withProfile(stack, {});
      const res = await send({ 'x-mock-status': '503' });
      t.equal(res.status, 503);
      const [event] = await events(res, 1);
      t.match(event, { event_type: 'PROVIDER_ERROR', severity: 'MEDIUM', action: 'ERROR', provider_id: provider.id });
      t.match(event!.reasons, [/HTTP 503/]);
    });

    t.test('the backend resets the connection: 502 LLM_REQUEST_FAILED and PROVIDER_ERROR', async (t) => {
      const { send } = await withProfile(stack, {});
      const res = await send({ 'x-mock-close': 'true' });
      t.equal(res.status, 502);
      t.equal(res.json.error.code, 'LLM_REQUEST_FAILED');
      t.match(await events(res, 1), [{ event_type: 'PROVIDER_ERROR', action: 'ERROR' }]);
    });

    t.test('a body that is not JSON: 400 and REQUEST_ERROR with the provider', async (t) => {
      const { provider, send } = await withProfile(stack, {});
      const res = await send({ 'content-type': 'application/json' }, '{"model": ');
      t.equal(res.status, 400);
      t.match(await events(res, 1), [{ event_type: 'REQUEST_ERROR', severity: 'LOW', provider_id: provider.id }]);
    });

    t.test('no provider matches: REQUEST_ERROR without a provider', async (t) => {
      // No route, no trace header in the answer: the client's X-Trace-ID names the request.
      const traceId = `no-route-${randomUUID()}`;
      const res = await stack.call('POST', '/chat', { body: chat('hi'), headers: { 'x-original-uri': `/nowhere-${randomUUID()}`, 'x-trace-id': traceId } });
      t.equal(res.status, 502);
      t.match(await events({ ...res, headers: { 'x-service-trace-id': traceId } }, 1), [{ event_type: 'REQUEST_ERROR', provider_id: null }]);
    });

    t.test('PROVIDER_ERROR listed in disabled_event_types is not recorded', async (t) => {
      const { send } = await withProfile(stack, {
        event_logging: { disabled_event_types: ['PROVIDER_ERROR'] },
        pii: { types: ['CREDIT_CARD'], mode: 'block' },
      });
      const failed = await send({ 'x-mock-status': '500' });
      t.equal(failed.status, 500);
      // A later call whose events are always recorded: once they are stored, the earlier call's would be too.
      const blocked = await send({}, chat('card 4111 1111 1111 1111'));
      t.equal(blocked.status, 403);
      t.ok((await events(blocked, 2)).length >= 2, 'the later events arrived');
      t.same(await events(failed, 0), [], 'nothing for the suppressed type');
    });
  });
});
