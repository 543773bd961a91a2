import t from 'tap';
import Fastify from 'fastify';
import { HEAP_PROBE_PATH, registerHeapProbe } from './heap-probe.js';

t.test('the heap probe exists only with gc exposed, and collects before it measures', async (t) => {
  const holder = globalThis as { gc?: () => void };
  const original = holder.gc;
  t.teardown(() => {
    if (original) holder.gc = original;
    else delete holder.gc;
  });

  delete holder.gc;
  const plain = Fastify();
  registerHeapProbe(plain);
  t.equal((await plain.inject({ method: 'GET', url: HEAP_PROBE_PATH })).statusCode, 404, 'absent without --expose-gc');

  let collections = 0;
  holder.gc = () => void collections++;
  const probed = Fastify();
  registerHeapProbe(probed);
  const res = await probed.inject({ method: 'GET', url: HEAP_PROBE_PATH });
  t.equal(res.statusCode, 200);
  t.equal(collections, 1, 'a collection ran first');
  const body = res.json() as Record<string, number>;
  for (const key of ['heap_used_bytes', 'heap_total_bytes', 'external_bytes', 'rss_bytes']) t.ok(body[key]! > 0, key);
});
