import t from 'tap';
import { createMatchCache } from './match-cache.js';
import { compileRouter, type MatchRequest, type RoutableProvider, type Router } from './router.js';

const provider = (id: string, match_value: string, extra: Partial<RoutableProvider> = {}): RoutableProvider => ({
  id,
  tenant_id: 'default',
  status: 'ACTIVE',
  match_type: 'url',
  match_value,
  priority: 100,
  created_at: '2024-01-01T00:00:00Z',
  ...extra,
});

/** A router that counts the matches that reach it. */
function counting<P extends RoutableProvider>(router: Router<P>) {
  const counter = { calls: 0 };
  const wrapped: Router<P> = {
    ...router,
    size: router.size,
    invalid: router.invalid,
    match(request) {
      counter.calls++;
      return router.match(request);
    },
    cacheKey: (request) => router.cacheKey(request),
  };
  return { router: wrapped, counter };
}

const uri = (original_uri: string, tenant_id = 'default'): MatchRequest => ({ tenant_id, original_uri });

t.test('the cache returns the router result and reuses it', async (t) => {
  const a = provider('a', '/a/**');
  const { router, counter } = counting(compileRouter([a, provider('b', '/b/*')]));
  const cache = createMatchCache(router, { maxEntries: 100 });
  t.equal(cache.match(uri('/a/x')), a);
  t.equal(cache.match(uri('/a/x')), a, 'same object');
  t.equal(cache.match(uri('/a/x?page=2')), a, 'globs only: the query is not part of the key');
  t.equal(counter.calls, 1);
  t.equal(cache.match(uri('/zzz')), null);
  t.equal(cache.match(uri('/zzz')), null, 'a miss is cached too');
  t.equal(counter.calls, 2);
  t.equal(cache.hits, 3);
  t.equal(cache.misses, 2);
  t.equal(cache.size, 2);
  t.equal(cache.match(uri('/a/x', 'other')), null, 'tenants never share an entry');
  t.equal(counter.calls, 3);
  cache.clear();
  t.equal(cache.size, 0);
  t.equal(cache.match(uri('/a/x')), a);
  t.equal(counter.calls, 4);
});

t.test('maxEntries bounds the cache, dropping the least recently used', async (t) => {
  const { router, counter } = counting(compileRouter([provider('a', '/**')]));
  const cache = createMatchCache(router, { maxEntries: 3 });
  for (const path of ['/1', '/2', '/3']) cache.match(uri(path));
  cache.match(uri('/1')); // /1 is now the most recently used; /2 the least
  cache.match(uri('/4')); // evicts /2
  t.equal(cache.size, 3);
  t.equal(counter.calls, 4);
  cache.match(uri('/1'));
  cache.match(uri('/3'));
  cache.match(uri('/4'));
  t.equal(counter.calls, 4, '/1, /3 and /4 are still cached');
  cache.match(uri('/2'));
  t.equal(counter.calls, 5, '/2 was evicted');
  for (let i = 0; i < 1000; i++) cache.match(uri(`/many/${i}`));
  t.equal(cache.size, 3);
});

t.test('a new router means a new cache', async (t) => {
  const before = compileRouter([provider('old', '/v1/**')]);
  const cache = createMatchCache(before);
  t.equal(cache.match(uri('/v1/x'))?.id, 'old');
  const after = compileRouter([provider('old', '/v1/**', { status: 'ARCHIVED' }), provider('new', '/v1/*')]);
  const fresh = createMatchCache(after);
  t.equal(fresh.match(uri('/v1/x'))?.id, 'new');
  t.equal(fresh.router, after);
});

t.test('maxEntries must be a positive integer', async (t) => {
  const router = compileRouter([]);
  t.throws(() => createMatchCache(router, { maxEntries: 0 }), RangeError);
  t.throws(() => createMatchCache(router, { maxEntries: 1.5 }), RangeError);
  t.doesNotThrow(() => createMatchCache(router, { maxEntries: 1 }));
});
