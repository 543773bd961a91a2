// The gateway as the CLI (and end-to-end tests) run it: the upstream client, the live configuration
// loader and the app, closed in the right order.
import type { Logger } from 'pino';
import { activeTracer, BUNDLE_HTTP_PATH, type LocalBundleAppliers, type SecretBox, type Streams } from '@palisade/core';
import { createConfigLoader } from '../config/loader.js';
import type { GatewaySnapshot } from '../config/snapshot.js';
import { join } from 'node:path';
import { createEventEmitter } from '../events/index.js';
import { registerEventMetrics } from '../events/metrics.js';
import { openEventSpill } from '../events/spill/spill.js';
import { createInspectionTimings } from '../pipeline/inspection-timings.js';
import { createRequestInspector, createResponseScanner, type InspectionDetectors } from '../pipeline/index.js';
import { createStreamScanning } from '../streaming/index.js';
import { createUpstreamClient } from '../upstream/index.js';
import { createTurnSlicer } from '../scheduling/turn-slicer.js';
import { createUsageRecorder } from '../usage/index.js';
import { buildGateway } from './build-gateway.js';
import { registerHeapProbe } from './heap-probe.js';
import { registerGatewayMetrics } from './gateway-metrics.js';
import type { GatewayConfig } from './env.js';

export interface GatewayComponentDeps {
  config: GatewayConfig;
  /** Cache (OAuth tokens, rate limits) and pub/sub (bundle change notices). */
  streams: Pick<Streams, 'cache' | 'pubsub' | 'events'>;
  /** Opens the sealed upstream credentials of the bundle. */
  secrets: SecretBox;
  logger?: Logger;
  logLevel?: string;
  /** X-Internal-Token towards the bundle store. */
  internalToken?: string | undefined;
  /** The bundle consumers of this process: a write here is answered once this gateway serves it. */
  appliers?: LocalBundleAppliers;
  /** The detectors of the inspection pipeline (closed with the gateway); none: profiles are not inspected. */
  detectors?: InspectionDetectors;
  /** PALISADE_DATA_DIR: the event spill's default home is its gateway-events folder (default .data). */
  dataDir?: string | undefined;
}

export function createGatewayComponent(deps: GatewayComponentDeps) {
  const { config } = deps;
  const upstream = createUpstreamClient({
    cache: deps.streams.cache,
    insecureSkipVerify: config.GATEWAY_LLM_INSECURE_SKIP_VERIFY,
    ...(deps.logger ? { logger: deps.logger.child({ service: 'gateway' }) } : {}),
  });
  // Spans per inspection stage and detector, and per bundle download, when the OpenTelemetry SDK runs (startTelemetry).
  const tracer = activeTracer('gateway');
  // Security events go to the internal stream; the event writer and the exporter read them there.
  // While the stream is unreachable they wait in a journal on local disk (events/spill).
  const eventLogger = deps.logger?.child({ service: 'gateway' });
  const spill =
    config.GATEWAY_EVENTS_SPILL_MAX_BYTES > 0
      ? openEventSpill({
          dir: config.GATEWAY_EVENTS_SPILL_DIR ?? join(deps.dataDir ?? '.data', 'gateway-events'),
          maxBytes: config.GATEWAY_EVENTS_SPILL_MAX_BYTES,
          fsyncIntervalMs: config.GATEWAY_EVENTS_SPILL_FSYNC_MS,
          logger: eventLogger,
        })
      : undefined;
  const events = createEventEmitter({ events: deps.streams.events, streamMaxLen: config.GATEWAY_EVENTS_STREAM_MAX_LEN, maxBuffer: config.GATEWAY_EVENTS_MEMORY_BUFFER, logger: eventLogger, spill });
  const usage = createUsageRecorder({
    events: deps.streams.events,
    onWarning: (message, error) => deps.logger?.warn({ service: 'gateway', ...(error ? { err: String(error) } : {}) }, message),
  });
  const timings = createInspectionTimings();
  // One slicer for the request and the response side: they share the loop.
  const slicer = config.GATEWAY_CPU_SLICE_MS > 0 ? createTurnSlicer({ sliceMs: config.GATEWAY_CPU_SLICE_MS }) : undefined;
  const streams = deps.detectors ? createStreamScanning(deps.detectors, { events }) : undefined;
  const loader = createConfigLoader({
    tracer,
    bundleUrl: new URL(BUNDLE_HTTP_PATH, config.BUNDLE_STORE_URL).href,
    internalToken: deps.internalToken,
    pubsub: deps.streams.pubsub,
    ...(deps.appliers ? { appliers: deps.appliers } : {}),
    pollIntervalMs: Math.round(config.GATEWAY_CONFIG_POLL_SECONDS * 1000),
    ...(deps.logger ? { logger: deps.logger.child({ service: 'gateway' }) } : {}),
    snapshot: { secrets: deps.secrets },
    // The streaming profiles' rule automata are built when a bundle loads, not on their first stream.
    // A failed build only means the first stream builds it again; it must never become an unhandled rejection.
    ...(streams
      ? {
          onLoaded: (snapshot: GatewaySnapshot) =>
            void streams.prewarm(snapshot).catch((error: unknown) => eventLogger?.warn({ err: error, revision: snapshot.revision }, 'building the streaming rules ahead failed')),
        }
      : {}),
  });
  const service = buildGateway({
    config,
    current: loader.current,
    upstream,
    cache: deps.streams.cache,
    events,
    usage,
    ...(deps.logger ? { logger: deps.logger } : { logLevel: deps.logLevel ?? 'info' }),
    closers: [() => loader.stop(), () => upstream.close(), () => usage.stop().catch(() => {}), () => events.close(), ...(deps.detectors ? [() => deps.detectors!.close()] : [])],
    ...(streams ? { streams } : {}),
    ...(deps.detectors
      ? {
          inspector: createRequestInspector(deps.detectors, { events, timings, slicer, tracer }),
          scanner: createResponseScanner(deps.detectors, { events, timings, slicer, tracer }),
        }
      : {}),
  });
  timings.register(service.metrics.registry);
  registerEventMetrics(service.metrics.registry, () => events.stats);
  registerHeapProbe(service.app);
  registerGatewayMetrics(service.app, service.metrics.registry, { revision: () => loader.current()?.revision ?? null, confirmedAt: loader.confirmedAt });
  return {
    ...service,
    loader,
    upstream,
    events,
    usage,
    /** Subscribes to change notices, loads the first snapshot (retried by the poll if the store is not up yet) and starts the usage flushes. */
    start: async () => {
      usage.start();
      await loader.start();
    },
  };
}
export type GatewayComponent = ReturnType<typeof createGatewayComponent>;
