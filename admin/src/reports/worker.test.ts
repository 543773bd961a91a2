// The report worker's claims on PGlite and PostgreSQL: a report left by a dead worker is generated
// again once its lease runs out, two workers never take the same report, failures are recorded, and
// the retention worker deletes old files.
import t from 'tap';
import { setTimeout as sleep } from 'node:timers/promises';
import { createReportRepository, createUsageRepository, USAGE_LATENCY_BUCKETS, type Database, type Report } from '@palisade/core';
import { forEachDatabase } from '@palisade/core/testing';
import { createRetentionWorker } from '../retention/index.js';
import { createReportWorker } from './worker.js';

function pending(over: Partial<Report> = {}): Report {
  return {
    id: globalThis.crypto.randomUUID(),
    type: 'LLM_USAGE',
    format: 'CSV',
    period_start: '2026-03-01',
    period_end: '2026-03-02',
    tenant_id: 'acme',
    all_tenants: false,
    status: 'PENDING',
    error: null,
    created_by: 'test',
    created_at: new Date().toISOString(),
    completed_at: null,
    size_bytes: null,
    ...over,
  };
}

async function create(db: Database, over: Partial<Report> = {}) {
  return createReportRepository(db).create(pending(over));
}

t.test('report worker', async (t) => {
  await forEachDatabase(t, async (t, db) => {
    const reports = createReportRepository(db);

    t.test('a report whose worker died is generated again after its lease', async (t) => {
      const report = await create(db);
      // What a killed worker leaves behind: the claim, never renewed, never finished.
      const dead = await reports.claim('killed-worker', 150);
      t.equal(dead?.report.id, report.id);
      const survivor = createReportWorker({ db, leaseMs: 5_000 });
      t.equal(await survivor.runOnce(), null, 'not while the dead worker\'s lease runs');
      await sleep(250);
      t.equal(await survivor.runOnce(), report.id, 'taken over once the lease ran out');
      const done = await reports.get(report.id);
      t.equal(done?.status, 'COMPLETED');
      t.ok((await reports.content(report.id))?.content.length);
      t.notOk(await reports.complete(report.id, 'killed-worker', Buffer.from('late'), new Date().toISOString()), 'the dead worker cannot overwrite it');
    });

    t.test('two workers never generate the same report', async (t) => {
      const a = await create(db);
      const b = await create(db);
      const seen: string[] = [];
      const slow = async (r: Report) => {
        seen.push(r.id);
        await sleep(100);
        return Buffer.from(r.id);
      };
      const [one, two] = await Promise.all([createReportWorker({ db, generate: slow }).runOnce(), createReportWorker({ db, generate: slow }).runOnce()]);
      t.same([one, two].sort(), [a.id, b.id].sort());
      t.same(seen.sort(), [a.id, b.id].sort());
      t.equal(await createReportWorker({ db }).runOnce(), null);
    });

    t.test('the lease is renewed while a long report is generated', async (t) => {
      const report = await create(db);
      const worker = createReportWorker({ db, leaseMs: 120, generate: async () => (await sleep(400), Buffer.from('x')) });
      const running = worker.runOnce();
      await sleep(250);
      t.equal(await reports.claim('thief', 1_000), null, 'still held past the first lease');
      t.equal(await running, report.id);
      t.equal((await reports.get(report.id))?.status, 'COMPLETED');
    });

    t.test('a generation error is FAILED with the reason; a report that keeps killing workers is failed', async (t) => {
      const broken = await create(db);
      await createReportWorker({ db, generate: async () => Promise.reject(new Error('relation "usage_rollups" is gone')) }).runOnce();
      t.match(await reports.get(broken.id), { status: 'FAILED', error: 'relation "usage_rollups" is gone' });
      const cursed = await create(db);
      for (let i = 0; i < 3; i++) {
        await reports.claim(`dying-${i}`, 1);
        await sleep(20);
      }
      await createReportWorker({ db, maxAttempts: 3 }).runOnce();
      t.match(await reports.get(cursed.id), { status: 'FAILED', error: /abandoned 3 times/ });
    });

    t.test('the retention worker deletes reports older than report_retention_days', async (t) => {
      const now = new Date('2026-06-01T00:00:00Z');
      const old = await create(db, { created_at: '2025-05-01T00:00:00Z' });
      const recent = await create(db, { created_at: '2026-05-01T00:00:00Z' });
      for (const r of [old, recent]) {
        await db.query(`UPDATE reports SET lease_owner = 'w' WHERE id = $1`, [r.id]);
        await reports.complete(r.id, 'w', Buffer.from('file'), r.created_at);
      }
      const rollup = { tenant_id: 'acme', provider_id: '', provider_name: '', model: '', decision: 'NONE' as const, status_class: '2xx' as const, inspected: false, requests: 1, usage_reported: 0, input_tokens: 0, output_tokens: 0, latency_ms_sum: 1, latency_buckets: new Array<number>(USAGE_LATENCY_BUCKETS).fill(0) };
      await createUsageRepository(db).storeBatch({ kind: 'usage', batch_id: globalThis.crypto.randomUUID(), source: 't', rollups: [{ ...rollup, minute: '2026-01-01T00:00:00.000Z' }, { ...rollup, minute: '2026-05-31T00:00:00.000Z' }] });
      const result = await createRetentionWorker({ db, now: () => now }).runOnce();
      t.ok(result.reports_deleted >= 1);
      t.equal(result.usage_rows_deleted, 1, 'usage rollups go with the events (90 days by default)');
      t.equal(await reports.get(old.id), null, 'older than 365 days (the default): gone with its file');
      t.equal((await reports.content(recent.id))?.content.toString(), 'file');
    });
  });
});
