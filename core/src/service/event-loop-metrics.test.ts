import t from 'tap';
import { Registry } from 'prom-client';
import { registerEventLoopMetrics } from './event-loop-metrics.js';

const quantile = async (registry: Registry, q: string): Promise<number> => {
  const metric = await registry.getSingleMetric('palisade_event_loop_delay_seconds')!.get();
  return metric.values.find((v) => v.labels.quantile === q)?.value ?? Number.NaN;
};

t.test('an idle loop reads as no delay (not as the sampling period), a blocked one as the time blocked', async (t) => {
  const registry = new Registry();
  const stop = registerEventLoopMetrics(registry, 5);
  t.teardown(stop);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const idle = await quantile(registry, '0.5');
  t.ok(idle < 0.002, `idle p50 ${idle} s`);

  await new Promise((resolve) => setTimeout(resolve, 50));
  const until = performance.now() + 60;
  while (performance.now() < until); // block the loop for 60 ms
  await new Promise((resolve) => setTimeout(resolve, 50));
  const max = await quantile(registry, 'max');
  t.ok(max >= 0.05 && max < 0.5, `blocked max ${max} s`);
});
