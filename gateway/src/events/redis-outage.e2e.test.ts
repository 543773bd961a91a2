// Redis killed under load and started again: every answered request's security events are stored.
// Real parts throughout: a redis-server of the test's own (killed with SIGKILL, restarted on the same
// port with its append-only file), the gateway with in-process PII inspection, the registry's event
// writer storing to one database (PostgreSQL when reachable). The outage lasts PALISADE_REDIS_OUTAGE_SECONDS (default 8,
// to keep the suite short; the scenario of the hardening report is 30: run it with that value).
import t from 'tap';
import { request } from 'undici';
import { forOneDatabase } from '@palisade/core/testing';
import { startOwnRedis } from '../testing/redis-server.js';
import { startStack, type ProfiledRoute, type Stack } from '../testing/stack.js';

const OUTAGE_MS = Number(process.env.PALISADE_REDIS_OUTAGE_SECONDS ?? 8) * 1000;
const WORKERS = 4;
/** GATEWAY_EVENTS_SPILL_MAX_BYTES=0 here shows the loss without the spill (the test then fails). */
const spillEnv: Record<string, string> = process.env.GATEWAY_EVENTS_SPILL_MAX_BYTES ? { GATEWAY_EVENTS_SPILL_MAX_BYTES: process.env.GATEWAY_EVENTS_SPILL_MAX_BYTES } : {};
t.setTimeout(OUTAGE_MS + 300_000);

const body = (i: number) => ({
  model: 'gpt-x',
  messages: [{ role: 'user', content: `Ticket ${i}: please write back to jane.doe+${i}@example.com about the refund.` }],
});

/** Requests in `WORKERS` loops until stopped; collects the trace id of every answered (200) one. */
function load(send: ProfiledRoute['send']) {
  const answered: string[] = [];
  const failed: string[] = [];
  let running = true;
  let sent = 0;
  const worker = async (): Promise<void> => {
    while (running) {
      const i = sent++;
      try {
        const res = await send(body(i));
        if (res.status === 200) answered.push(String(res.headers['x-service-trace-id']));
        else failed.push(String(res.status));
      } catch (err) {
        failed.push((err as Error).message);
      }
    }
  };
  const done = Promise.all(Array.from({ length: WORKERS }, worker));
  return {
    answered,
    failed,
    async stop() {
      running = false;
      await done;
    },
  };
}

/** A counter of the gateway's /metrics. */
async function metric(stack: Stack, name: string): Promise<number> {
  const text = await (await request(`${stack.gatewayUrl}/metrics`)).body.text();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
  return line ? Number(line.split(' ').at(-1)) : NaN;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

t.test(`Redis killed for ${OUTAGE_MS / 1000} s under load, then restarted: every answered request's events are stored`, async (t) => {
  await forOneDatabase(t, async (t, db) => {
    const started = Date.now();
    const phase = (what: string) => t.comment(`${what} at ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const redis = await startOwnRedis();
    t.teardown(() => redis.close());
    // A small memory buffer: on this slow machine the load is a few hundred requests, far from the
    // 10 000 events that overflowed in the hardening report; scaled down, the same overflow happens.
    const stack = await startStack({ db, streams: 'redis', redisUrl: redis.url, gatewayEnv: { GATEWAY_EVENTS_MEMORY_BUFFER: '20', ...spillEnv } });
    t.teardown(async () => {
      phase('closing');
      await stack.close();
      phase('closed');
    });
    const route = await stack.profiled({ pii: { enabled: true, mode: 'mask' } });

    phase('stack ready');
    const traffic = load(route.send);
    for (const until = Date.now() + 15_000; traffic.answered.length < 20 && Date.now() < until; ) await sleep(100);
    const beforeOutage = traffic.answered.length;
    await redis.kill();
    await sleep(OUTAGE_MS);
    const duringOutage = traffic.answered.length - beforeOutage;
    await redis.start();
    await sleep(2_000);
    await traffic.stop();
    t.ok(beforeOutage > 0 && duringOutage > 10, `answered ${beforeOutage} before and ${duringOutage} during the outage (${traffic.failed.length} not answered: ${[...new Set(traffic.failed)].slice(0, 3).join(', ')})`);

    phase('load stopped');
    // Every answered request must leave PII_DETECTED and REQUEST_SANITIZED (never suppressible).
    const expected = new Set(traffic.answered);
    let missing: string[] = [...expected];
    const deadline = Date.now() + 45_000;
    while (missing.length > 0 && Date.now() < deadline) {
      await sleep(500);
      const rows = await db.query<{ trace_id: string; n: string | number }>(
        `SELECT trace_id, count(DISTINCT event_type) AS n FROM security_events
          WHERE event_type IN ('PII_DETECTED', 'REQUEST_SANITIZED') AND trace_id = ANY($1) GROUP BY trace_id`,
        [[...expected]],
      );
      const complete = new Set(rows.rows.filter((r) => Number(r.n) === 2).map((r) => r.trace_id));
      missing = [...expected].filter((id) => !complete.has(id));
    }
    phase('events stored');
    t.equal(missing.length, 0, `all ${expected.size} answered requests have both events stored (missing e.g. ${missing.slice(0, 3).join(', ')})`);
    t.ok((await metric(stack, 'palisade_security_events_spilled_total')) > 0, 'events were spilled during the outage');
    t.ok((await metric(stack, 'palisade_security_events_replayed_total')) > 0, 'and replayed');
    t.equal(await metric(stack, 'palisade_security_events_dropped_total'), 0, 'none dropped');
    t.equal(await metric(stack, 'palisade_security_events_spill_bytes'), 0, 'the journal is empty again');
  });
});
