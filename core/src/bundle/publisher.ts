// Rebuilds the policy bundle from the database after configuration changes, stores it for the bundle
// store and tells the data plane (ARCHITECTURE.md, "Data and configuration flow"): the registry and
// the operator both publish through this one path.
import type { Logger } from 'pino';
import { createBundleRepository, type BundleRepository } from '../store/repositories/bundle-repository.js';
import { createResourceStore } from '../store/resources.js';
import type { Database } from '../store/database.js';
import type { PubSub } from '../stream/types.js';
import { buildBundle } from './bundle.js';
import type { LocalBundleAppliers } from './local-appliers.js';

/** Pub/sub channel of bundle change notices; the message is `{"revision": "<sha256>"}`. */
export const BUNDLE_CHANNEL = 'palisade:bundle';

export interface BundlePublisherOptions {
  db: Database;
  pubsub: PubSub;
  logger?: Pick<Logger, 'info' | 'warn' | 'error' | 'debug'>;
  /** Changes within this window make one rebuild (default 20 ms). */
  debounceMs?: number;
  /**
   * Safety net: rebuild this often even without a change notice (default 30 s; 0 = never), so that a
   * write made behind the publisher's back (SQL, a crashed publisher) still reaches the data plane.
   */
  refreshIntervalMs?: number;
  /** The bundle consumers of this process; publish() and syncNow() resolve once they applied the revision. */
  appliers?: LocalBundleAppliers;
}

export interface BundlePublisher {
  /** A change happened: rebuild soon. */
  schedule(): void;
  /**
   * A change was written: rebuild now (joining a build that has not read the database yet), announce a
   * new revision, and resolve to it once this process's bundle consumers serve it.
   */
  publish(): Promise<string>;
  /** Rebuilds now and announces the revision even when it did not change; resolves to the revision once applied here. */
  syncNow(): Promise<string>;
  /** Builds the first bundle and starts the safety-net refresh. */
  start(): Promise<string>;
  /** Stops timers and waits for a running rebuild. */
  stop(): Promise<void>;
  /** The revision last stored, or null before the first build. */
  readonly revision: string | null;
}

export function createBundlePublisher(options: BundlePublisherOptions): BundlePublisher {
  const store = createResourceStore(options.db);
  const bundles: BundleRepository = createBundleRepository(options.db);
  const debounceMs = options.debounceMs ?? 20;
  const refreshIntervalMs = options.refreshIntervalMs ?? 30_000;
  let revision: string | null = null;
  let debounce: NodeJS.Timeout | undefined;
  let refresh: NodeJS.Timeout | undefined;
  let stopped = false;
  // Rebuilds run one at a time. A request made while one is waiting to start joins it; one made after
  // it started waits for the next, so a change made during a build is never missed and a burst of
  // changes costs at most two builds.
  let chain: Promise<unknown> = Promise.resolve();
  let waiting: { promise: Promise<string>; force: boolean } | null = null;
  async function rebuildOnce(force: boolean): Promise<string> {
    const [providers, profiles, content_policies, api_keys] = await Promise.all([
      store.providers.all({ status: 'ACTIVE' }),
      store.profiles.all({ status: 'ACTIVE' }),
      store.contentPolicies.all({ status: 'ACTIVE' }),
      store.apiKeys.all({ revoked: false }),
    ]);
    const bundle = await buildBundle({ providers, profiles, content_policies, api_keys });
    const stored = await bundles.revision();
    if (stored !== bundle.revision) {
      await bundles.save(bundle);
      options.logger?.info({ revision: bundle.revision, providers: bundle.data.providers.length }, 'policy bundle rebuilt');
    }
    revision = bundle.revision;
    if (force || stored !== bundle.revision) await options.pubsub.publish(BUNDLE_CHANNEL, JSON.stringify({ revision: bundle.revision }));
    return bundle.revision;
  }

  function rebuild(force: boolean): Promise<string> {
    if (waiting) {
      waiting.force ||= force;
      return waiting.promise;
    }
    const entry: { promise: Promise<string>; force: boolean } = { promise: Promise.resolve(''), force };
    entry.promise = chain.then(() => {
      if (waiting === entry) waiting = null;
      return rebuildOnce(entry.force);
    });
    waiting = entry;
    chain = entry.promise.catch(() => undefined);
    return entry.promise;
  }

  async function applied(built: string): Promise<string> {
    await options.appliers?.applyAll(built);
    return built;
  }

  const background = (why: string) => {
    rebuild(false).catch((error: unknown) => options.logger?.error({ err: error, why }, 'policy bundle rebuild failed'));
  };

  return {
    get revision() {
      return revision;
    },
    schedule() {
      if (stopped) return;
      if (debounce) clearTimeout(debounce);
      debounce = setTimeout(() => {
        debounce = undefined;
        background('change');
      }, debounceMs);
      debounce.unref();
    },
    publish: () => rebuild(false).then(applied),
    syncNow: () => rebuild(true).then(applied),
    async start() {
      const first = await rebuild(true);
      if (refreshIntervalMs > 0 && !stopped) {
        refresh = setInterval(() => background('refresh'), refreshIntervalMs);
        refresh.unref();
      }
      return first;
    },
    async stop() {
      stopped = true;
      if (debounce) clearTimeout(debounce);
      if (refresh) clearInterval(refresh);
      await chain;
    },
  };
}
