// Where the bundle store gets the bundle it serves. The registry (and the operator) provide a source
// in-process; createMemoryBundleSource holds the last published bundle in memory.

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
