// The compiled-set cache of an evaluator: bounded, least recently used dropped first, keyed by what
// identifies a policy list's content (README.md, "Compilation and cache").
import { createHash } from 'node:crypto';

export interface LruCache<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): void;
  readonly size: number;
}

/** A Map keeps insertion order: re-inserting on a hit makes the first key the least recently used. */
export function createLruCache<K, V>(capacity: number): LruCache<K, V> {
  if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`cache capacity must be a positive integer (got ${capacity})`);
  const entries = new Map<K, V>();
  return {
    get(key) {
      const value = entries.get(key);
      if (value === undefined) return undefined;
      entries.delete(key);
      entries.set(key, value);
      return value;
    },
    set(key, value) {
      entries.delete(key);
      entries.set(key, value);
      if (entries.size > capacity) entries.delete(entries.keys().next().value as K);
    },
    get size() {
      return entries.size;
    },
  };
}

const idOf = (policy: unknown): string =>
  policy !== null && typeof policy === 'object' && 'id' in policy ? String((policy as { id: unknown }).id) : '';

/**
 * With a revision (a content hash of the configuration, such as the bundle revision) the key is the
 * revision plus the policy ids, so that two profiles' different subsets of one bundle get different
 * sets; without one, a SHA-256 of the policies as sent.
 */
export function policySetKey(policies: readonly unknown[], revision?: string): string {
  if (revision !== undefined) return `rev:${JSON.stringify([revision, policies.map(idOf)])}`;
  return `sha256:${createHash('sha256').update(JSON.stringify(policies)).digest('base64url')}`;
}
