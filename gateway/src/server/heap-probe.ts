// A diagnostic for memory measurements (the bench): GET /internal/heap forces a full garbage
// collection and answers what is left alive, next to the RSS. It exists only in a process started with
// --expose-gc, which a production gateway never is: a forced collection pauses the event loop.
import { getHeapStatistics } from 'node:v8';
import type { FastifyInstance } from 'fastify';

export const HEAP_PROBE_PATH = '/internal/heap';

export function registerHeapProbe(app: FastifyInstance): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (typeof gc !== 'function') return;
  app.get(HEAP_PROBE_PATH, { logLevel: 'warn' }, async () => {
    gc();
    const usage = process.memoryUsage();
    return {
      heap_used_bytes: usage.heapUsed,
      heap_total_bytes: usage.heapTotal,
      external_bytes: usage.external,
      array_buffers_bytes: usage.arrayBuffers,
      rss_bytes: usage.rss,
      heap_limit_bytes: getHeapStatistics().heap_size_limit,
    };
  });
}
