// Usage accounting through real servers: calls through the gateway (buffered and streamed, routed and
// unrouted) are counted, flushed through the stream and stored by the event writer that the registry
// runs, with the token usage the mock LLM reported.
import t from 'tap';
import { setTimeout as sleep } from 'node:timers/promises';
import { createUsageRepository } from '@palisade/core';
import { forEachDatabase } from '@palisade/core/testing';
import { startStack } from '../testing/stack.js';

t.test('usage rollups from gateway calls', async (t) => {
  await forEachDatabase(t, async (t, db) => {
    const stack = await startStack({ db, streams: db.kind === 'postgres' ? 'redis' : 'memory', inspect: false });
    t.teardown(() => stack.close());
    const provider = await stack.provider({ name: 'Провайдер-чат', match_value: '/v1/chat/completions' }, 'acme');
    const chat = (extra: Record<string, unknown> = {}) => ({ model: 'gpt-x', messages: [{ role: 'user', content: 'count me' }], ...extra });
    const buffered = await stack.call('POST', '/v1/chat/completions', { body: chat(), headers: { 'x-tenant-id': 'acme' } });
    t.equal(buffered.status, 200);
    const streamed = await stack.call('POST', '/v1/chat/completions', { body: chat({ stream: true, stream_options: { include_usage: true } }), headers: { 'x-tenant-id': 'acme' } });
    t.equal(streamed.status, 200);
    const unrouted = await stack.call('POST', '/nowhere', { body: chat(), headers: { 'x-tenant-id': 'acme' } });
    t.equal(unrouted.status, 502);

    await stack.gateway.usage.flush();
    const usage = createUsageRepository(db);
    const window = { tenant_ids: ['acme'], from: new Date(Date.now() - 3_600_000).toISOString(), to: new Date(Date.now() + 60_000).toISOString() };
    let totals = await usage.totals(window);
    for (let i = 0; i < 100 && totals.requests < 3; i++) {
      await sleep(100);
      totals = await usage.totals(window);
    }
    t.equal(totals.requests, 3, 'every call counted, the unrouted one too');
    t.equal(totals.usage_reported, 2, 'both answers reported token usage');
    t.ok(totals.input_tokens > 0 && totals.output_tokens > 0);
    const rows = await db.query<{ provider_name: string; status_class: string; requests: number }>(
      `SELECT provider_name, status_class, sum(requests)::int AS requests FROM usage_rollups WHERE tenant_id = 'acme' GROUP BY 1, 2 ORDER BY 1 DESC`,
    );
    t.same(rows.rows, [
      { provider_name: provider.name, status_class: '2xx', requests: 2 },
      { provider_name: '', status_class: '5xx', requests: 1 },
    ]);
  });
});
