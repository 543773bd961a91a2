// Per-exporter counters on the service's own prom-client registry (never the global one).
import { Counter, Gauge, type Registry } from 'prom-client';

export interface ExporterMetrics {
  delivered: Counter<'exporter_id' | 'exporter_type'>;
  failed: Counter<'exporter_id' | 'exporter_type'>;
  retried: Counter<'exporter_id' | 'exporter_type'>;
  deadLettered: Counter<'exporter_id' | 'exporter_type'>;
  filtered: Counter<'exporter_id' | 'exporter_type'>;
  lagSeconds: Gauge<'exporter_id' | 'exporter_type'>;
  pending: Gauge<'exporter_id' | 'exporter_type'>;
  /** Drops the series of an exporter that was deleted. */
  forget(labels: { exporter_id: string; exporter_type: string }): void;
}

export function createExporterMetrics(registry: Registry): ExporterMetrics {
  const labelNames = ['exporter_id', 'exporter_type'] as const;
  const counter = (name: string, help: string) => new Counter({ name, help, labelNames, registers: [registry] });
  const gauge = (name: string, help: string) => new Gauge({ name, help, labelNames, registers: [registry] });
  const metrics = {
    delivered: counter('palisade_exporter_delivered_total', 'Events the destination accepted'),
    failed: counter('palisade_exporter_failed_total', 'Delivery attempts that failed (each retry counts)'),
    retried: counter('palisade_exporter_retried_total', 'Delivery attempts that were retries'),
    deadLettered: counter('palisade_exporter_dead_lettered_total', 'Events given up on after the retries and recorded in the dead-letter stream'),
    filtered: counter('palisade_exporter_filtered_total', 'Events skipped by the filters, while disabled, or from before the exporter existed'),
    lagSeconds: gauge('palisade_exporter_lag_seconds', 'Age of the oldest event read and not yet delivered (0 when caught up)'),
    pending: gauge('palisade_exporter_pending_events', 'Stream entries read by the exporter and not yet acknowledged'),
  };
  return {
    ...metrics,
    forget(labels) {
      for (const m of Object.values(metrics)) m.remove(labels);
    },
  };
}
