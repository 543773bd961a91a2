// Keeps the gateway's snapshot current: the bundle is fetched from
// the bundle store, reloaded at once on a change notice (pub/sub) and checked with If-None-Match
// every poll interval as a safety net for a lost notice. A request holds the snapshot it started
// with, so a running request keeps its old provider settings (e.g. its timeout).
import { request } from 'undici';
import { BUNDLE_CHANNEL, DEFAULT_MAX_BUNDLE_BYTES, inRootSpan, readBundle, readLimited, SpanKind, withTraceHeaders, type LocalBundleAppliers, type PubSub, type Span, type TraceContext, type Tracer } from '@palisade/core';
import { compileSnapshot, type GatewaySnapshot, type SnapshotOptions } from './snapshot.js';

export interface ConfigLoaderLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface ConfigLoaderOptions {
  /** The bundle's full URL, e.g. http://127.0.0.1:9000/policies/policies/default/bundle.tar.gz. */
  bundleUrl: string;
  /** Sent as X-Internal-Token when the bundle store requires it. */
  internalToken?: string | undefined;
  /** Where change notices arrive (BUNDLE_CHANNEL); without it only polling reloads. */
  pubsub?: PubSub;
  /**
   * The bundle consumers of this process (`palisade all`): a publisher here waits until this loader
   * serves the revision it announced, so the next request after a write sees the write.
   */
  appliers?: LocalBundleAppliers;
  /** The safety-net check interval (default 10 s). */
  pollIntervalMs?: number;
  /** Limit of one bundle download (default 10 s). */
  fetchTimeoutMs?: number;
  logger?: ConfigLoaderLogger;
  snapshot?: Omit<SnapshotOptions, 'previous'>;
  /** With traces on: a span per bundle download. */
  tracer?: Tracer | undefined;
  /** A new revision is in force (off the request path: the loader's own refresh calls it). */
  onLoaded?: ((snapshot: GatewaySnapshot) => void) | undefined;
}

export interface ConfigLoader {
  /** The snapshot in force, or null before the first successful load. */
  current(): GatewaySnapshot | null;
  /** Subscribes, loads once (a failure is logged and retried by the poll) and starts polling. */
  start(): Promise<void>;
  /** Checks the store now; resolves true when a new revision was loaded. Concurrent calls share one check. */
  refresh(): Promise<boolean>;
  /** When the store last confirmed the snapshot in force (an answer 200 or 304), epoch ms; null before. */
  confirmedAt(): number | null;
  stop(): Promise<void>;
}

export function createConfigLoader(options: ConfigLoaderOptions): ConfigLoader {
  const pollIntervalMs = options.pollIntervalMs ?? 10_000;
  const fetchTimeoutMs = options.fetchTimeoutMs ?? 10_000;
  let snapshot: GatewaySnapshot | null = null;
  let confirmedAt: number | null = null;
  let timer: NodeJS.Timeout | undefined;
  let unsubscribe: (() => Promise<void>) | undefined;
  let removeApplier: (() => void) | undefined;
  let inFlight: Promise<boolean> | null = null;
  let again = false;
  let stopped = false;

  // With traces on, each download is a trace of its own whose traceparent the bundle store continues.
  const fetchOnce = (): Promise<boolean> => inRootSpan(options.tracer, 'bundle fetch', fetchBundle, { kind: SpanKind.CLIENT });

  async function fetchBundle(traceContext: TraceContext | undefined, span: Span | undefined): Promise<boolean> {
    const headers: Record<string, string> = {};
    if (snapshot) headers['if-none-match'] = `"${snapshot.revision}"`;
    if (options.internalToken) headers['x-internal-token'] = options.internalToken;
    const response = await request(options.bundleUrl, { headers: withTraceHeaders(headers, traceContext), headersTimeout: fetchTimeoutMs, bodyTimeout: fetchTimeoutMs });
    span?.setAttribute('http.response.status_code', response.statusCode);
    // The archive is compressed, so it is never larger than the decompressed bytes readBundle accepts:
    // a store answering more is refused before it can fill the gateway's memory.
    const body = await readLimited(response.body, DEFAULT_MAX_BUNDLE_BYTES);
    if (!body) throw new Error(`the bundle store's answer is over ${DEFAULT_MAX_BUNDLE_BYTES} bytes`);
    if (response.statusCode === 304) {
      confirmedAt = Date.now();
      return false;
    }
    if (response.statusCode === 404) {
      // No bundle built yet: nothing is configured, which is a valid (empty) state only once known.
      return false;
    }
    if (response.statusCode !== 200) throw new Error(`the bundle store answered ${response.statusCode}`);
    const bundle = await readBundle(body);
    span?.setAttribute('palisade.bundle.revision', bundle.revision);
    if (snapshot?.revision === bundle.revision) {
      confirmedAt = Date.now();
      return false;
    }
    const previous = snapshot;
    snapshot = compileSnapshot(bundle.revision, bundle.data, { ...options.snapshot, ...(previous ? { previous } : {}) });
    confirmedAt = Date.now();
    for (const { provider, message } of snapshot.invalid) {
      options.logger?.warn({ provider_id: provider.id, message }, 'provider left out of routing: its pattern does not compile');
    }
    options.logger?.info({ revision: bundle.revision, providers: snapshot.providers, previous: previous?.revision ?? null }, 'configuration loaded');
    try {
      options.onLoaded?.(snapshot);
    } catch (error) {
      options.logger?.warn({ err: error, revision: bundle.revision }, 'a hook on the loaded configuration failed');
    }
    return true;
  }

  function refresh(): Promise<boolean> {
    if (inFlight) {
      // A notice during a fetch may name a newer revision than the one being read: check once more.
      again = true;
      return inFlight;
    }
    inFlight = (async () => {
      let changed = false;
      do {
        again = false;
        changed = (await fetchOnce()) || changed;
      } while (again && !stopped);
      return changed;
    })().finally(() => {
      inFlight = null;
    });
    return inFlight;
  }

  const background = (why: string) => {
    refresh().catch((error: unknown) => options.logger?.error({ err: error, why, url: options.bundleUrl }, 'configuration reload failed'));
  };

  return {
    current: () => snapshot,
    confirmedAt: () => confirmedAt,
    refresh,
    async start() {
      removeApplier = options.appliers?.add(async (revision) => {
        if (snapshot?.revision !== revision) await refresh();
      });
      if (options.pubsub) {
        unsubscribe = await options.pubsub.subscribe(BUNDLE_CHANNEL, (message) => {
          let revision: unknown;
          try {
            revision = (JSON.parse(message) as { revision?: unknown }).revision;
          } catch {
            revision = undefined;
          }
          if (typeof revision === 'string' && revision === snapshot?.revision) return;
          background('notice');
        });
      }
      try {
        await refresh();
      } catch (error) {
        options.logger?.error({ err: error, url: options.bundleUrl }, 'first configuration load failed; retrying on the next poll');
      }
      if (pollIntervalMs > 0 && !stopped) {
        timer = setInterval(() => background('poll'), pollIntervalMs);
        timer.unref();
      }
    },
    async stop() {
      stopped = true;
      removeApplier?.();
      if (timer) clearInterval(timer);
      await unsubscribe?.();
      await inFlight?.catch(() => undefined);
    },
  };
}
