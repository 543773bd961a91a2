import t from 'tap';
import { createHistogram } from 'node:perf_hooks';
import { Registry } from 'prom-client';
import { registerEventLoopMetrics } from './event-loop-metrics.js';

const quantile = async (registry: Registry, q: string): Promise<number> => {
  const metric = await registry.getSingleMetric('palisade_event_loop_delay_seconds')!.get();
  return metric.values.find((v) => v.labels.quantile === q)?.value ?? Number.NaN;
};

const MS = 1e6;

t.test('the timer period is not delay: an idle loop reads 0, a late turn reads its lateness', async (t) => {
  const registry = new Registry();
  const histogram = createHistogram();
  registerEventLoopMetrics(registry, 5, histogram);
  for (let i = 0; i < 99; i += 1) histogram.record(5 * MS); // idle: every turn exactly on its 5 ms period
  histogram.record(65 * MS); // one turn blocked for 60 ms
  // The histogram keeps 3 significant digits, so "exactly 5 ms" comes back within a few microseconds.
  t.ok((await quantile(registry, '0.5')) < 0.0001, 'idle p50');
  t.ok(Math.abs((await quantile(registry, 'max')) - 0.06) < 0.001, 'max is the 60 ms beyond the period');
});

t.test('each scrape covers the time since the previous one', async (t) => {
  const registry = new Registry();
  const histogram = createHistogram();
  registerEventLoopMetrics(registry, 5, histogram);
  histogram.record(105 * MS);
  t.ok((await quantile(registry, 'max')) > 0.099);
  histogram.record(5 * MS);
  t.ok((await quantile(registry, 'max')) < 0.0001, 'the 100 ms turn was reported once and reset');
});

t.test("Node's own loop monitor sees a blocked loop", async (t) => {
  const registry = new Registry();
  const stop = registerEventLoopMetrics(registry, 5);
  t.teardown(stop);
  await new Promise((resolve) => setTimeout(resolve, 50));
  const until = performance.now() + 60;
  while (performance.now() < until); // block the loop for 60 ms
  await new Promise((resolve) => setTimeout(resolve, 50));
  // A lower bound only: a loop blocked 60 ms was at least ~55 ms late; how much later depends on the machine.
  t.ok((await quantile(registry, 'max')) >= 0.05);
});
