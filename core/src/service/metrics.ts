import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface ServiceMetrics {
  registry: Registry;
  requests: Counter<'method' | 'route' | 'status_code'>;
  duration: Histogram<'method' | 'route' | 'status_code'>;
}

/**
 * One registry per service instance (never prom-client's global one), so several components in one
 * process (`palisade all`) and parallel tests keep separate counters.
 */
export function createServiceMetrics(service: string, options: { processMetrics?: boolean } = {}): ServiceMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  if (options.processMetrics) collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, per route and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency, per route',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });
  return { registry, requests, duration };
}

/** Counts every answered request by its route pattern (not the raw URL, which would explode labels). */
export function instrument(app: FastifyInstance, metrics: ServiceMetrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status_code: String(reply.statusCode),
    };
    metrics.requests.inc(labels);
    metrics.duration.observe(labels, reply.elapsedTime / 1000);
  });
  app.get('/metrics', { logLevel: 'warn' }, async (_request, reply) => {
    reply.header('content-type', metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}
