import type { FastifyInstance } from 'fastify';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { createRequestStats, type RequestStats } from './request-stats.js';

export interface ServiceMetrics {
  registry: Registry;
  /** http_requests_total and http_request_duration_seconds per method, route and status. */
  requests: RequestStats;
}

/**
 * One registry per service instance (never prom-client's global one), so several components in one
 * process (`palisade all`) and parallel tests keep separate counters.
 */
export function createServiceMetrics(service: string, options: { processMetrics?: boolean } = {}): ServiceMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  if (options.processMetrics) collectDefaultMetrics({ register: registry });
  const requests = createRequestStats(registry);
  return { registry, requests };
}

/** Counts every answered request by its route pattern (not the raw URL, which would explode labels). */
export function instrument(app: FastifyInstance, metrics: ServiceMetrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.requests.record(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  app.get('/metrics', { logLevel: 'warn' }, async (_request, reply) => {
    reply.header('content-type', metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}
