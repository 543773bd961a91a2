// An open-loop load at a steady rate: request i is sent at start + i / rate, whether or not the earlier
// ones have answered. Why not autocannon's overallRate: it gives each connection a per-second budget
// that it spends back to back at the start of every second, so "400 req/s" arrives as a 400-request
// burst and the gateway is saturated for part of each second, which is the opposite of a paced load.
import { createHistogram } from 'node:perf_hooks';
import { Pool } from 'undici';
import { latencyFigures, roundTo, type LoadSpec, type Measurement } from './scenario.js';

/** How often due requests are sent: at 400 req/s, two at a time every 5 ms. */
const TICK_MS = 5;

/** `rate`: requests per second over all connections. */
export async function runPaced(spec: LoadSpec, rate: number): Promise<Measurement> {
  const pool = new Pool(spec.url, { connections: spec.connections, pipelining: 1 });
  const histogram = createHistogram(); // microseconds
  const statusCodes: Record<string, number> = {};
  let requests = 0;
  let errors = 0;
  let non2xx = 0;
  let skipped = 0;
  const pending = new Set<Promise<void>>();

  const one = async (): Promise<void> => {
    const sent = performance.now();
    try {
      const res = await pool.request({ method: spec.method, path: spec.path, headers: spec.headers, ...(spec.body !== undefined ? { body: spec.body } : {}) });
      await res.body.dump();
      requests++;
      statusCodes[String(res.statusCode)] = (statusCodes[String(res.statusCode)] ?? 0) + 1;
      if (res.statusCode >= 200 && res.statusCode < 300) histogram.record(Math.max(1, Math.round((performance.now() - sent) * 1000)));
      else non2xx++;
    } catch {
      errors++;
    }
  };

  const started = performance.now();
  const endAt = started + spec.durationSec * 1000;
  let sentCount = 0;
  while (performance.now() < endAt) {
    const due = Math.floor(((performance.now() - started) / 1000) * rate);
    while (sentCount < due) {
      sentCount++;
      // More in flight than connections means the target has fallen behind: count it, do not queue.
      if (pending.size >= spec.connections) {
        skipped++;
        continue;
      }
      const p = one();
      pending.add(p);
      void p.finally(() => pending.delete(p));
    }
    await new Promise((resolve) => setTimeout(resolve, TICK_MS));
  }
  const durationSec = (performance.now() - started) / 1000;
  await Promise.all(pending);
  await pool.close();
  return {
    rps: roundTo(requests / durationSec, 1),
    ...latencyFigures(histogram),
    requests,
    errors: errors + skipped,
    timeouts: 0,
    non2xx,
    statusCodes,
    durationSec,
  };
}
