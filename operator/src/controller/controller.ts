// The shared reconcile loop: informers of the four kinds and of Secrets feed a per-object work queue;
// each object goes to its kind's reconciler (provider.ts, security-profile.ts, content-policy.ts,
// event-exporter.ts) through the steps all kinds share (reconcile-resource.ts). The loop owns the
// finalizers' bookkeeping, watch restarts and the periodic resync, which repairs records edited behind
// the operator's back and mirrors the providers' health checks into their status.
import type { Logger } from 'pino';
import { ADD, DELETE, UPDATE, type V1Secret } from '@kubernetes/client-node';
import { createResourceStore, type BundlePublisher, type Database, type SecretBox } from '@palisade/core';
import { FINALIZER, KINDS, TENANT_LABEL, type KindName } from '../crd/kinds.js';
import type { CachedInformer, CustomResource, KubeClient } from '../kube/client.js';
import { informerLookups } from './informer-lookups.js';
import { createResourceReconciler } from './reconcile-resource.js';
import { RECONCILERS } from './reconcilers.js';
import { createRecordWriter } from './records.js';
import { createWatchRestarts } from './watch-restarts.js';
import { createWorkQueue, type WorkQueue } from './work-queue.js';

export interface ControllerOptions {
  kube: KubeClient;
  db: Database;
  secrets: SecretBox;
  publisher: BundlePublisher;
  /** Watch one namespace; all when absent. */
  namespace?: string | undefined;
  resyncMs?: number;
  logger?: Pick<Logger, 'info' | 'warn' | 'error' | 'debug'>;
  now?: () => Date;
  /** Retry delays of failed reconciles (default 500 ms doubling to 60 s). */
  baseBackoffMs?: number;
}

export interface Controller {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Enqueues every cached object (what the periodic resync does). */
  resync(): void;
  /** Resolves when the work queue has nothing left. */
  idle(): Promise<void>;
}

const keyOf = (kind: KindName, namespace: string, name: string) => `${kind}/${namespace}/${name}`;

export function createController(options: ControllerOptions): Controller {
  const store = createResourceStore(options.db);
  const now = options.now ?? (() => new Date());
  const log = options.logger;
  const informers = new Map<KindName, CachedInformer<CustomResource>>();
  let secretInformer: CachedInformer<V1Secret> | undefined;
  /** uid of each object last seen, so an object deleted without our finalizer still loses its record. */
  const uids = new Map<string, string>();
  let resyncTimer: NodeJS.Timeout | undefined;
  let stopped = false;
  const watches = createWatchRestarts({ log, stopped: () => stopped });

  function enqueueNamespace(kinds: readonly KindName[], namespace: string | undefined) {
    for (const kind of kinds) {
      for (const object of informers.get(kind)?.list(namespace) ?? []) queue.add(keyOf(kind, object.metadata.namespace, object.metadata.name));
    }
  }

  const resources = createResourceReconciler({
    kube: options.kube,
    writer: createRecordWriter({ store, secrets: options.secrets, ...(options.now ? { now: options.now } : {}) }),
    publisher: options.publisher,
    lookups: informerLookups(store, { resources: informers, secrets: () => secretInformer }),
    now,
    log,
    requeue: enqueueNamespace,
  });

  async function tenantOf(namespace: string): Promise<string> {
    const labels = await options.kube.namespaceLabels(namespace);
    return labels?.[TENANT_LABEL] || namespace;
  }

  async function reconcile(key: string) {
    const [kind, namespace, name] = key.split('/') as [KindName, string, string];
    const reconciler = RECONCILERS[kind];
    const resource = informers.get(kind)?.get(name, namespace);
    if (!resource) {
      // Gone without our finalizer (or before we added it): drop the record we wrote for it.
      const uid = uids.get(key);
      if (uid) await resources.removeRecord(reconciler, namespace, uid);
      uids.delete(key);
      return;
    }
    uids.set(key, resource.metadata.uid);
    if (resource.metadata.deletionTimestamp) {
      if (await resources.finalize(reconciler, resource)) uids.delete(key);
      return;
    }
    const finalizers = resource.metadata.finalizers ?? [];
    if (!finalizers.includes(FINALIZER)) {
      // The watch brings the patched object back and reconciles it again.
      await options.kube.patchMetadata(kind, namespace, name, { finalizers: [...finalizers, FINALIZER], resourceVersion: resource.metadata.resourceVersion });
      return;
    }
    await resources.apply(reconciler, resource, await tenantOf(namespace));
  }

  const queue: WorkQueue = createWorkQueue({
    handler: reconcile,
    ...(options.baseBackoffMs !== undefined ? { baseBackoffMs: options.baseBackoffMs } : {}),
    onError: (key, error, retryInMs) => log?.warn({ key, err: error, retryInMs }, 'reconcile failed; retrying'),
  });

  return {
    async start() {
      stopped = false;
      secretInformer = options.kube.secretInformer(options.namespace);
      const readingSecrets = KINDS.map((k) => k.kind).filter((kind) => RECONCILERS[kind].readsSecrets);
      const onSecret = (secret: V1Secret) => enqueueNamespace(readingSecrets, secret.metadata?.namespace);
      secretInformer.on(ADD, onSecret);
      secretInformer.on(UPDATE, onSecret);
      secretInformer.on(DELETE, onSecret);
      watches.keepWatching(secretInformer, 'secrets');
      for (const { kind } of KINDS) {
        const informer = options.kube.resourceInformer(kind, options.namespace);
        const enqueue = (o: CustomResource) => queue.add(keyOf(kind, o.metadata.namespace, o.metadata.name));
        informer.on(ADD, enqueue);
        informer.on(UPDATE, enqueue);
        informer.on(DELETE, enqueue);
        watches.keepWatching(informer, kind);
        informers.set(kind, informer);
      }
      // Secrets first, so that the first reconciles find the credentials they reference.
      await secretInformer.start();
      await Promise.all([...informers.values()].map((i) => i.start()));
      const resyncMs = options.resyncMs ?? 60_000;
      if (resyncMs > 0) {
        resyncTimer = setInterval(() => this.resync(), resyncMs);
        resyncTimer.unref();
      }
    },
    resync() {
      enqueueNamespace(
        KINDS.map((k) => k.kind),
        undefined,
      );
    },
    idle: () => queue.idle(),
    async stop() {
      stopped = true;
      if (resyncTimer) clearInterval(resyncTimer);
      watches.cancel();
      await Promise.all([...informers.values()].map((i) => i.stop()));
      await secretInformer?.stop();
      await queue.shutdown();
      informers.clear();
    },
  };
}
