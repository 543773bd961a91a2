import t from 'tap';
import { createLruCache, policySetKey } from './policy-set-cache.js';

t.test('LRU: the least recently used entry goes first', async (t) => {
  const cache = createLruCache<string, number>(2);
  cache.set('a', 1);
  cache.set('b', 2);
  t.equal(cache.get('a'), 1, 'a is now the most recent');
  cache.set('c', 3);
  t.equal(cache.get('b'), undefined, 'b was evicted');
  t.equal(cache.get('a'), 1);
  t.equal(cache.get('c'), 3);
  t.equal(cache.size, 2);
  cache.set('a', 10);
  t.equal(cache.get('a'), 10, 'set replaces');
  t.equal(cache.size, 2);
  t.throws(() => createLruCache(0), RangeError);
});

t.test('keys: content hash without a revision, revision plus ids with one', async (t) => {
  const p1 = [{ id: 'a', rules: [{ kind: 'keyword', pattern: 'x' }] }];
  const p1copy = JSON.parse(JSON.stringify(p1)) as unknown[];
  const p2 = [{ id: 'a', rules: [{ kind: 'keyword', pattern: 'y' }] }];
  t.equal(policySetKey(p1), policySetKey(p1copy), 'equal content, equal key');
  t.not(policySetKey(p1), policySetKey(p2), 'a changed pattern changes the key');
  t.match(policySetKey(p1), /^sha256:/);
  t.equal(policySetKey(p1, 'r1'), policySetKey(p2, 'r1'), 'with a revision, the caller vouches for the content');
  t.not(policySetKey(p1, 'r1'), policySetKey(p1, 'r2'));
  t.not(policySetKey([{ id: 'a' }], 'r1'), policySetKey([{ id: 'a' }, { id: 'b' }], 'r1'), 'another subset of the same revision');
  t.not(policySetKey([{ id: 'a,b' }], 'r'), policySetKey([{ id: 'a' }, { id: 'b' }], 'r'), 'ids cannot run together');
});
