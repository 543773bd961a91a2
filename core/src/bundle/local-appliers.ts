// In one process (`palisade all`) a configuration write is answered only once the gateway of that
// process serves it, so a script that activates a provider and sends a request at once is routed. The
// pub/sub notice alone cannot promise that: it is fire-and-forget and the reload it starts is async.
// Each in-process consumer of the bundle (the gateway's config loader) registers here; the publisher
// waits for all of them after announcing a revision. Consumers in other processes still follow the
// notice and the poll.

/** Resolves once the consumer serves `revision` or a newer one; rejects when it cannot load it. */
export type BundleApplier = (revision: string) => Promise<void>;

export interface LocalBundleAppliers {
  /** Registers a consumer of this process; the returned function removes it. */
  add(apply: BundleApplier): () => void;
  /** Waits until every consumer of this process applied `revision`; a failure is reported, not thrown. */
  applyAll(revision: string): Promise<void>;
}

export function createLocalBundleAppliers(onError?: (error: unknown, revision: string) => void): LocalBundleAppliers {
  const appliers = new Set<BundleApplier>();
  return {
    add(apply) {
      appliers.add(apply);
      return () => void appliers.delete(apply);
    },
    async applyAll(revision) {
      const results = await Promise.allSettled([...appliers].map((apply) => apply(revision)));
      for (const result of results) if (result.status === 'rejected') onError?.(result.reason, revision);
    },
  };
}
