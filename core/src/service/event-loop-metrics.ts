// Event-loop delay of a service as gauges that cover the time since the previous scrape: a detector
// that blocks the loop (model inference on the main thread) shows up as a high p99 at once, not
// diluted by hours of history. Node's own histogram measures it (perf_hooks.monitorEventLoopDelay).
// That histogram records the interval between its timer's firings, so an idle loop reads as the
// resolution (5 ms here); the gauges report the lateness beyond it, which is what "delay" means.
import { monitorEventLoopDelay, type RecordableHistogram } from 'node:perf_hooks';
import { Gauge, type Registry } from 'prom-client';

const QUANTILES = [50, 90, 99] as const;

/** What the gauges read: Node's loop monitor, or (in tests) a histogram filled by hand. */
export type DelayHistogram = Pick<RecordableHistogram, 'count' | 'percentile' | 'max' | 'reset'>;

/** Registers palisade_event_loop_delay_seconds{quantile} and _max; returns the stopper. */
export function registerEventLoopMetrics(registry: Registry, resolutionMs = 5, histogram?: DelayHistogram): () => void {
  if (histogram !== undefined) {
    registerDelayGauge(registry, histogram, resolutionMs);
    return () => undefined;
  }
  const monitor = monitorEventLoopDelay({ resolution: resolutionMs });
  monitor.enable();
  registerDelayGauge(registry, monitor, resolutionMs);
  return () => monitor.disable();
}

function registerDelayGauge(registry: Registry, monitor: DelayHistogram, resolutionMs: number): void {
  const resolutionNs = resolutionMs * 1e6;
  const seconds = (ns: number) => (Number.isFinite(ns) ? Math.max(0, ns - resolutionNs) / 1e9 : 0);
  new Gauge({
    name: 'palisade_event_loop_delay_seconds',
    help: 'Event-loop delay since the previous scrape, by quantile (quantile="max" for the largest)',
    labelNames: ['quantile'],
    registers: [registry],
    collect() {
      if (monitor.count === 0) return;
      for (const q of QUANTILES) this.set({ quantile: String(q / 100) }, seconds(monitor.percentile(q)));
      this.set({ quantile: 'max' }, seconds(monitor.max));
      monitor.reset();
    },
  });
}
