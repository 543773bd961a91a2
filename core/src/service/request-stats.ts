// Per-route request counters and latency histogram, recorded on every request of every service.
// prom-client's labelled Counter/Histogram hash their label object on each call (about 15 µs per
// request on the gateway's hot path); here a request costs one Map lookup and a few additions, and
// the Prometheus text is produced only when /metrics is scraped, through prom-client's custom-metric
// contract (an object with `get()`), so the registry, default labels and formatting stay prom-client's.
import type { Registry } from 'prom-client';

export const REQUEST_DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60] as const;

interface Series {
  labels: { method: string; route: string; status_code: string };
  count: number;
  sum: number;
  /** Non-cumulative counts per bucket; the last slot is +Inf. */
  buckets: Float64Array;
}

export interface RequestStats {
  record(method: string, route: string, statusCode: number, seconds: number): void;
  /** Every series (tests, debugging). */
  readonly size: number;
}

type MetricValue = { value: number; labels: Record<string, string | number>; metricName?: string };

/** Registers `http_requests_total` and `http_request_duration_seconds` on the registry. */
export function createRequestStats(registry: Registry): RequestStats {
  const series = new Map<string, Series>();
  const bounds = REQUEST_DURATION_BUCKETS;

  const counter = {
    name: 'http_requests_total',
    help: 'HTTP requests answered, per route and status code',
    type: 'counter',
    aggregator: 'sum',
    async get() {
      const values: MetricValue[] = [];
      for (const s of series.values()) values.push({ value: s.count, labels: s.labels });
      return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
    },
    reset() {
      series.clear();
    },
  };
  const histogram = {
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency, per route',
    type: 'histogram',
    aggregator: 'sum',
    async get() {
      const values: MetricValue[] = [];
      for (const s of series.values()) {
        let cumulative = 0;
        for (let i = 0; i < bounds.length; i++) {
          cumulative += s.buckets[i]!;
          values.push({ metricName: 'http_request_duration_seconds_bucket', value: cumulative, labels: { ...s.labels, le: bounds[i]! } });
        }
        values.push({ metricName: 'http_request_duration_seconds_bucket', value: s.count, labels: { ...s.labels, le: '+Inf' } });
        values.push({ metricName: 'http_request_duration_seconds_sum', value: s.sum, labels: s.labels });
        values.push({ metricName: 'http_request_duration_seconds_count', value: s.count, labels: s.labels });
      }
      return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
    },
    reset() {
      series.clear();
    },
  };
  // prom-client's registry only needs name/help/type/get/reset of a metric; the cast records that.
  registry.registerMetric(counter as unknown as Parameters<Registry['registerMetric']>[0]);
  registry.registerMetric(histogram as unknown as Parameters<Registry['registerMetric']>[0]);

  return {
    get size() {
      return series.size;
    },
    record(method, route, statusCode, seconds) {
      const key = `${method} ${statusCode} ${route}`;
      let s = series.get(key);
      if (!s) {
        s = { labels: { method, route, status_code: String(statusCode) }, count: 0, sum: 0, buckets: new Float64Array(bounds.length + 1) };
        series.set(key, s);
      }
      s.count++;
      s.sum += seconds;
      let i = 0;
      while (i < bounds.length && seconds > bounds[i]!) i++;
      s.buckets[i]!++;
    },
  };
}
