// Where the bundle store gets the bundle it serves: the database row the bundle publisher writes
// (createDatabaseBundleSource, the normal case), or a bundle held in memory (tests, tools).
import type { BundleRepository } from '../../store/repositories/bundle-repository.js';

/** What the store serves: the revision (its ETag) and the gzip tar. */
export interface StoredBundle {
  revision: string;
  archive: Buffer;
}

export interface BundleSource {
  /** The bundle to serve now, or null when none has been built yet. */
  current(): Promise<StoredBundle | null>;
}

export interface MemoryBundleSource extends BundleSource {
  /** Replaces the served bundle (extra fields such as `data` of a built bundle are not kept). */
  publish(bundle: StoredBundle): void;
  /** Serves nothing again (404). */
  clear(): void;
}

export function createMemoryBundleSource(initial: StoredBundle | null = null): MemoryBundleSource {
  let bundle: StoredBundle | null = initial && { revision: initial.revision, archive: initial.archive };
  return {
    async current() {
      return bundle;
    },
    publish(next) {
      bundle = { revision: next.revision, archive: next.archive };
    },
    clear() {
      bundle = null;
    },
  };
}

/**
 * The bundle the publisher stored in the database (table policy_bundles), so the store can run in
 * its own process. Each call reads only the revision; the archive is read again only when it changed.
 */
export function createDatabaseBundleSource(bundles: Pick<BundleRepository, 'revision' | 'get'>): BundleSource {
  let cached: StoredBundle | null = null;
  return {
    async current() {
      const revision = await bundles.revision();
      if (revision === null) return null;
      if (cached?.revision !== revision) {
        const stored = await bundles.get();
        cached = stored && { revision: stored.revision, archive: stored.archive };
      }
      return cached;
    },
  };
}
