// The provider-match result cache the gateway puts in front of a Router (spec: "Provider matching
// results are cached"). A bounded LRU keyed by Router.cacheKey, so only the inputs the tenant's
// providers read take part in the key; misses (null) are cached too. A cache belongs to one router:
// when the configuration changes the gateway compiles a new router and makes a new cache for it, which
// is the invalidation.
import type { MatchRequest, RoutableProvider, Router } from './router.js';

export interface MatchCacheOptions {
  /** Most results kept; the least recently used is dropped beyond it. Default 10 000. */
  maxEntries?: number;
}

export interface MatchCache<P extends RoutableProvider = RoutableProvider> {
  readonly router: Router<P>;
  match(request: MatchRequest): P | null;
  readonly size: number;
  readonly hits: number;
  readonly misses: number;
  clear(): void;
}

export const DEFAULT_MATCH_CACHE_ENTRIES = 10_000;

export function createMatchCache<P extends RoutableProvider>(router: Router<P>, options: MatchCacheOptions = {}): MatchCache<P> {
  const maxEntries = options.maxEntries ?? DEFAULT_MATCH_CACHE_ENTRIES;
  if (!Number.isInteger(maxEntries) || maxEntries < 1) {
    throw new RangeError(`maxEntries must be a positive integer, got ${maxEntries}`);
  }
  // A Map iterates in insertion order: re-inserting on a hit keeps the least recently used first.
  const entries = new Map<string, P | null>();
  let hits = 0;
  let misses = 0;

  return {
    router,
    get size() {
      return entries.size;
    },
    get hits() {
      return hits;
    },
    get misses() {
      return misses;
    },
    clear() {
      entries.clear();
    },
    match(request) {
      const key = router.cacheKey(request);
      const cached = entries.get(key);
      if (cached !== undefined) {
        hits++;
        entries.delete(key);
        entries.set(key, cached);
        return cached;
      }
      if (entries.has(key)) {
        // a cached miss (null)
        hits++;
        entries.delete(key);
        entries.set(key, null);
        return null;
      }
      misses++;
      const result = router.match(request);
      entries.set(key, result);
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
      return result;
    },
  };
}
