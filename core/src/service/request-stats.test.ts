import t from 'tap';
import { Registry } from 'prom-client';
import { createRequestStats } from './request-stats.js';

t.test('counts and cumulative buckets in the Prometheus text, with default labels', async (t) => {
  const registry = new Registry();
  registry.setDefaultLabels({ service: 'x' });
  const stats = createRequestStats(registry);
  stats.record('POST', '/chat', 200, 0.0004);
  stats.record('POST', '/chat', 200, 0.003);
  stats.record('POST', '/chat', 200, 100);
  stats.record('GET', '/health/live', 200, 0.0001);
  t.equal(stats.size, 2);
  const text = await registry.metrics();
  t.match(text, '# TYPE http_requests_total counter');
  t.match(text, 'http_requests_total{method="POST",route="/chat",status_code="200",service="x"} 3');
  t.match(text, '# TYPE http_request_duration_seconds histogram');
  t.match(text, 'http_request_duration_seconds_bucket{method="POST",route="/chat",status_code="200",le="0.0005",service="x"} 1');
  t.match(text, 'http_request_duration_seconds_bucket{method="POST",route="/chat",status_code="200",le="0.005",service="x"} 2');
  t.match(text, 'http_request_duration_seconds_bucket{method="POST",route="/chat",status_code="200",le="60",service="x"} 2');
  t.match(text, 'http_request_duration_seconds_bucket{method="POST",route="/chat",status_code="200",le="+Inf",service="x"} 3');
  t.match(text, /http_request_duration_seconds_sum\{method="POST",route="\/chat",status_code="200",service="x"\} 100\.0034/);
  t.match(text, 'http_request_duration_seconds_count{method="POST",route="/chat",status_code="200",service="x"} 3');
  registry.resetMetrics();
  t.equal(stats.size, 0);
});
