import t from 'tap';
import { randomUUID } from 'node:crypto';
import { createMemoryStreams, createUsageRepository, USAGE_LATENCY_BUCKETS, USAGE_STREAM, type UsageBatch, type UsageRollup } from '@palisade/core';
import { forEachDatabase } from '@palisade/core/testing';
import { createUsageWriter } from './usage-writer.js';

function rollup(over: Partial<UsageRollup> = {}): UsageRollup {
  const buckets = new Array<number>(USAGE_LATENCY_BUCKETS).fill(0);
  buckets[2] = over.requests ?? 3;
  return {
    minute: '2026-05-01T10:00:00.000Z',
    tenant_id: 'acme',
    provider_id: 'p1',
    provider_name: 'one',
    model: 'm1',
    decision: 'ALLOW',
    status_class: '2xx',
    inspected: true,
    requests: 3,
    usage_reported: 3,
    input_tokens: 30,
    output_tokens: 60,
    latency_ms_sum: 600,
    latency_buckets: buckets,
    ...over,
  };
}

const batch = (rollups: UsageRollup[]): UsageBatch => ({ kind: 'usage', batch_id: randomUUID(), source: 'gw', rollups });

t.test('usage batches land in the rollup table once', async (t) => {
  await forEachDatabase(t, async (t, db) => {
    const streams = createMemoryStreams();
    t.teardown(() => streams.close());
    const writer = createUsageWriter({ db, events: streams.events, claimIdleMs: 1, consumer: 'w1' });
    const usage = createUsageRepository(db);
    const window = { from: '2026-05-01T00:00:00Z', to: '2026-05-02T00:00:00Z' };

    const first = batch([rollup(), rollup({ decision: 'BLOCK', status_class: '4xx', requests: 1, usage_reported: 0, input_tokens: 0, output_tokens: 0, latency_ms_sum: 20 })]);
    await streams.events.append(USAGE_STREAM, first);
    // A second flush of the same minute adds up, buckets element-wise.
    await streams.events.append(USAGE_STREAM, batch([rollup({ requests: 2, input_tokens: 5, output_tokens: 5, latency_ms_sum: 100 })]));
    // The same batch delivered again (a gateway's append retried after a lost answer).
    await streams.events.append(USAGE_STREAM, first);
    await streams.events.append(USAGE_STREAM, { kind: 'usage', rollups: 'nonsense' });
    t.equal(await writer.drainOnce(), 4);
    t.same(writer.stats, { stored: 2, duplicates: 1, deadLettered: 1, failures: 0 });

    t.same(await usage.totals({ ...window, tenant_ids: ['acme'] }), { requests: 6, usage_reported: 6, input_tokens: 35, output_tokens: 65, latency_ms_sum: 720 });
    t.same(await usage.totals({ ...window, tenant_ids: ['other'] }), { requests: 0, usage_reported: 0, input_tokens: 0, output_tokens: 0, latency_ms_sum: 0 });
    const row = await db.query<{ buckets: number[] }>("SELECT latency_buckets::int[] AS buckets FROM usage_rollups WHERE decision = 'ALLOW'");
    t.same(row.rows[0]!.buckets, [0, 0, 5, 0, 0, 0, 0, 0, 0, 0]);
    t.same([...(await usage.requestsPerDay(window))], [['2026-05-01', 6]]);

    // A writer that died between storing and acking: its entry is claimed again and skipped.
    const again = batch([rollup({ minute: '2026-05-01T11:00:00.000Z' })]);
    await streams.events.append(USAGE_STREAM, again);
    await usage.storeBatch(again);
    const lost = await streams.events.read(USAGE_STREAM, 'usage-writer', 'dead-writer', { count: 1 });
    t.equal(lost.length, 1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    t.equal(await writer.drainOnce(), 1, 'claimed from the dead consumer');
    t.equal((await usage.totals({ ...window, tenant_ids: ['acme'] })).requests, 9, 'counted once');
    t.equal(await streams.events.pending(USAGE_STREAM, 'usage-writer'), 0);

    t.equal(await usage.deleteBefore('2026-05-01T10:30:00Z'), 2);
    t.equal((await usage.totals(window)).requests, 3);
  });
});
