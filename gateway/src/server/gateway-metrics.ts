// The gateway's own Prometheus series beside the generic HTTP ones: calls per provider, tenant and
// decision with their latency, and the policy bundle in force (revision and how long since the bundle
// store last confirmed it). Labels come from the route the gateway matched, never from raw client
// headers, so an unrouted caller cannot create series.
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

export const GATEWAY_METRICS = {
  requests: 'palisade_gateway_requests_total',
  duration: 'palisade_gateway_request_duration_seconds',
  bundleInfo: 'palisade_bundle_info',
  bundleAge: 'palisade_bundle_age_seconds',
} as const;

export interface BundleSource {
  /** The revision in force, null before the first load. */
  revision(): string | null;
  /** When the bundle store last confirmed it (epoch ms), null before. */
  confirmedAt(): number | null;
}

const statusClass = (status: number) => `${Math.floor(status / 100)}xx`;

export function registerGatewayMetrics(app: FastifyInstance, registry: Registry, bundle: BundleSource): void {
  const requests = new Counter({
    name: GATEWAY_METRICS.requests,
    help: 'Gateway calls by provider, tenant, effective decision (none: not inspected) and status class',
    labelNames: ['provider_id', 'tenant', 'decision', 'status_class'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: GATEWAY_METRICS.duration,
    help: 'Gateway call latency (inspection, upstream and response scan) by provider and decision',
    labelNames: ['provider_id', 'decision'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  new Gauge({
    name: GATEWAY_METRICS.bundleInfo,
    help: 'The policy bundle revision in force (value 1; the revision is a label, its first 12 hex digits)',
    labelNames: ['revision'],
    registers: [registry],
    collect() {
      this.reset();
      const revision = bundle.revision();
      if (revision) this.labels(revision.slice(0, 12)).set(1);
    },
  });
  new Gauge({
    name: GATEWAY_METRICS.bundleAge,
    help: 'Seconds since the bundle store last confirmed the bundle in force (-1 before the first load)',
    registers: [registry],
    collect() {
      const at = bundle.confirmedAt();
      this.set(at === null ? -1 : (Date.now() - at) / 1000);
    },
  });

  app.addHook('onResponse', (request, reply, done) => {
    const provider = reply.getHeader('x-provider-id');
    // Only a routed call names its provider and tenant (a configured one, authenticated when keys are on).
    const tenant = request.routedTenant;
    const routed = typeof provider === 'string' && tenant !== undefined;
    const decision = reply.getHeader('x-service-decision');
    const decisionLabel = typeof decision === 'string' ? decision : 'none';
    const providerLabel = routed ? provider : 'unrouted';
    requests.labels(providerLabel, routed ? tenant : 'unrouted', decisionLabel, statusClass(reply.statusCode)).inc();
    duration.labels(providerLabel, decisionLabel).observe(reply.elapsedTime / 1000);
    done();
  });
}
