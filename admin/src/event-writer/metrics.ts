// The event writer's progress on a service's /metrics, read at scrape time (nothing on its loop).
import { Counter, Gauge, type Registry } from 'prom-client';
import type { EventWriterStats } from './writer.js';

export const EVENT_WRITER_METRICS = {
  written: 'palisade_event_writer_written_total',
  deadLettered: 'palisade_event_writer_dead_lettered_total',
  failures: 'palisade_event_writer_failures_total',
  lag: 'palisade_event_writer_lag_seconds',
  degraded: 'palisade_event_writer_degraded',
} as const;

export function registerEventWriterMetrics(registry: Registry, read: () => EventWriterStats): void {
  const counter = (name: string, help: string, pick: (s: EventWriterStats) => number) =>
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        // The writer's count only grows: reset and add it.
        this.reset();
        const value = pick(read());
        if (value) this.inc(value);
      },
    });
  const gauge = (name: string, help: string, pick: (s: EventWriterStats) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(pick(read()));
      },
    });
  counter(EVENT_WRITER_METRICS.written, 'Security events stored by the event writer', (s) => s.written);
  counter(EVENT_WRITER_METRICS.deadLettered, 'Stream entries the event writer sent to the dead-letter stream', (s) => s.deadLettered);
  counter(EVENT_WRITER_METRICS.failures, 'Event writer cycles that failed (database or stream; each is retried)', (s) => s.failures);
  gauge(EVENT_WRITER_METRICS.lag, 'Age of the oldest event of the last batch stored (0 when caught up)', (s) => s.lagSeconds);
  gauge(EVENT_WRITER_METRICS.degraded, '1 while the event writer cannot store events', (s) => (s.degraded ? 1 : 0));
}
