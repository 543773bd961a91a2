// What a reconciler looks up while it turns a spec into a record: other custom resources and Secret
// keys, both from the informers' caches (no API call per reconcile), and the registry's records.
import type { V1Secret } from '@kubernetes/client-node';
import type { ResourceStore } from '@palisade/core';
import type { KindName } from '../crd/kinds.js';
import type { CachedInformer, CustomResource } from '../kube/client.js';
import type { Lookups } from './spec-input.js';

export interface InformerCaches {
  resources: ReadonlyMap<KindName, CachedInformer<CustomResource>>;
  /** The Secrets' informer, once started. */
  secrets(): CachedInformer<V1Secret> | undefined;
}

export function informerLookups(store: ResourceStore, caches: InformerCaches): Lookups {
  return {
    store,
    resource: (kind, namespace, name) => caches.resources.get(kind)?.get(name, namespace),
    secret(namespace, name, key) {
      const secret = caches.secrets()?.get(name, namespace);
      if (!secret) return { found: false };
      const encoded = secret.data?.[key];
      if (encoded !== undefined) return { found: true, value: Buffer.from(encoded, 'base64').toString('utf8') };
      const plain = secret.stringData?.[key];
      return plain !== undefined ? { found: true, value: plain } : { found: true };
    },
  };
}
