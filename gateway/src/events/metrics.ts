// The emitter's counters on the gateway's /metrics, read at scrape time (nothing on the request path).
import { Counter, Gauge, type Registry } from 'prom-client';
import type { EventEmitterStats } from './emitter-types.js';

type Source = () => EventEmitterStats;

const COUNTERS = {
  emitted: ['palisade_security_events_emitted_total', 'Security events produced by the gateway'],
  appended: ['palisade_security_events_appended_total', 'Security events the event stream accepted (replayed ones included; a retried append may count twice)'],
  spilled: ['palisade_security_events_spilled_total', 'Security events written to the local spill journal while the stream was unreachable or the memory buffer full'],
  replayed: ['palisade_security_events_replayed_total', 'Security events from the spill journal that the stream accepted'],
  dropped: ['palisade_security_events_dropped_total', 'Security events lost: the spill journal full (or, without a spill, the memory buffer), or emitted after shutdown'],
  failures: ['palisade_security_events_append_failures_total', 'Appends to the event stream that failed (each is retried)'],
  trimmedUnread: ['palisade_security_events_trimmed_unread_total', 'In-process stream only: entries its length cap removed before any reader took them'],
} as const;

const GAUGES = {
  buffered: ['palisade_security_events_buffered', 'Security events held in memory, queued or being appended'],
  spillBytes: ['palisade_security_events_spill_bytes', 'Bytes of the spill journal on disk (events waiting for the stream)'],
  degraded: ['palisade_security_events_stream_degraded', '1 while appends to the event stream fail'],
} as const;

export function registerEventMetrics(registry: Registry, read: Source): void {
  for (const [key, [name, help]] of Object.entries(COUNTERS)) {
    registry.registerMetric(
      new Counter({
        name,
        help,
        registers: [],
        collect() {
          // A counter cannot be set; the emitter's count only grows, so reset and add it.
          const value = read()[key as keyof typeof COUNTERS];
          this.reset();
          if (value) this.inc(value);
        },
      }),
    );
  }
  for (const [key, [name, help]] of Object.entries(GAUGES)) {
    registry.registerMetric(
      new Gauge({
        name,
        help,
        registers: [],
        collect() {
          this.set(Number(read()[key as keyof typeof GAUGES]));
        },
      }),
    );
  }
}
