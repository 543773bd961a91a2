// The reconcile loop: informers of the four kinds and of Secrets feed a per-object work queue;
// reconcile = validate → upsert into the registry database → rebuild the policy bundle → status.
// Finalizers remove the records when a resource is deleted; a periodic resync repairs records edited
// behind the operator's back and mirrors the providers' health checks into their status.
import { isDeepStrictEqual } from 'node:util';
import type { Logger } from 'pino';
import { ADD, DELETE, ERROR, UPDATE, type Informer, type V1Secret } from '@kubernetes/client-node';
import { createResourceStore, type BundlePublisher, type Database, type Provider, type SecretBox } from '@palisade/core';
import { FINALIZER, KINDS, TENANT_LABEL, type KindName } from '../crd/kinds.js';
import { statusCodeOf, type CachedInformer, type CustomResource, type KubeClient } from '../kube/client.js';
import { setCondition, type Condition } from './conditions.js';
import { desiredModel, SpecError, type Lookups } from './desired-record.js';
import { createRecordWriter } from './records.js';
import { redactStatus, secretsOfSpec } from './status-redaction.js';
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
  const writer = createRecordWriter({ store, secrets: options.secrets, ...(options.now ? { now: options.now } : {}) });
  const now = options.now ?? (() => new Date());
  const log = options.logger;
  const informers = new Map<KindName, CachedInformer<CustomResource>>();
  let secretInformer: CachedInformer<V1Secret> | undefined;
  /** uid of each object last seen, so an object deleted without our finalizer still loses its record. */
  const uids = new Map<string, string>();
  let resyncTimer: NodeJS.Timeout | undefined;
  const restartTimers = new Set<NodeJS.Timeout>();
  let stopped = false;

  const lookups: Lookups = {
    store,
    resource: (kind, namespace, name) => informers.get(kind)?.get(name, namespace),
    secret(namespace, name, key) {
      const secret = secretInformer?.get(name, namespace);
      if (!secret) return { found: false };
      const encoded = secret.data?.[key];
      if (encoded !== undefined) return { found: true, value: Buffer.from(encoded, 'base64').toString('utf8') };
      const plain = secret.stringData?.[key];
      return plain !== undefined ? { found: true, value: plain } : { found: true };
    },
  };

  async function tenantOf(namespace: string): Promise<string> {
    const labels = await options.kube.namespaceLabels(namespace);
    return labels?.[TENANT_LABEL] || namespace;
  }

  function enqueueNamespace(kinds: KindName[], namespace: string | undefined) {
    for (const kind of kinds) {
      for (const object of informers.get(kind)?.list(namespace) ?? []) queue.add(keyOf(kind, object.metadata.namespace, object.metadata.name));
    }
  }

  async function writeStatus(kind: KindName, resource: CustomResource, status: Record<string, unknown>) {
    const before = resource.status ?? {};
    const next = { ...before, ...status };
    if (isDeepStrictEqual(before, next)) return;
    try {
      await options.kube.patchStatus(kind, resource.metadata.namespace, resource.metadata.name, status);
    } catch (error) {
      if (statusCodeOf(error) === 404) return; // deleted meanwhile
      throw error;
    }
  }

  function conditions(resource: CustomResource, ready: boolean, reason: string, message: string): Condition[] {
    const generation = resource.metadata.generation ?? 0;
    const previous = (resource.status?.conditions as Condition[] | undefined) ?? [];
    const at = now();
    const status = ready ? 'True' : 'False';
    let list = setCondition(previous, { type: 'Ready', status, observedGeneration: generation, reason, message }, at);
    list = setCondition(list, { type: 'Reconciled', status, observedGeneration: generation, reason, message }, at);
    return list;
  }

  function healthOf(record: Provider | null) {
    if (!record) return undefined;
    return {
      status: record.health_status,
      latencyMs: record.health_latency_ms ?? null,
      message: record.health_error_message ?? null,
      checkedAt: record.health_checked_at ?? null,
    };
  }

  async function finalize(kind: KindName, resource: CustomResource) {
    const finalizers = resource.metadata.finalizers ?? [];
    if (!finalizers.includes(FINALIZER)) return;
    if (await writer.remove(kind, resource.metadata.uid)) await options.publisher.syncNow();
    await options.kube.patchMetadata(kind, resource.metadata.namespace, resource.metadata.name, {
      finalizers: finalizers.filter((f) => f !== FINALIZER),
      resourceVersion: resource.metadata.resourceVersion,
    });
    uids.delete(keyOf(kind, resource.metadata.namespace, resource.metadata.name));
    if (kind !== 'SecurityProfile') enqueueNamespace(['SecurityProfile'], resource.metadata.namespace);
    log?.info({ kind, namespace: resource.metadata.namespace, name: resource.metadata.name }, 'record removed');
  }

  async function reconcile(key: string) {
    const [kind, namespace, name] = key.split('/') as [KindName, string, string];
    const resource = informers.get(kind)?.get(name, namespace);
    if (!resource) {
      // Gone without our finalizer (or before we added it): drop the record we wrote for it.
      const uid = uids.get(key);
      if (uid && (await writer.remove(kind, uid))) await options.publisher.syncNow();
      uids.delete(key);
      return;
    }
    uids.set(key, resource.metadata.uid);
    if (resource.metadata.deletionTimestamp) return finalize(kind, resource);
    if (!(resource.metadata.finalizers ?? []).includes(FINALIZER)) {
      // The watch brings the patched object back and reconciles it again.
      await options.kube.patchMetadata(kind, namespace, name, {
        finalizers: [...(resource.metadata.finalizers ?? []), FINALIZER],
        resourceVersion: resource.metadata.resourceVersion,
      });
      return;
    }

    const tenant = await tenantOf(namespace);
    let input: Record<string, unknown>;
    try {
      input = await desiredModel(kind, resource, lookups);
    } catch (error) {
      if (!(error instanceof SpecError)) throw error;
      log?.warn({ kind, namespace, name, reason: error.reason }, error.message);
      await writeStatus(kind, resource, { observedGeneration: resource.metadata.generation ?? 0, conditions: conditions(resource, false, error.reason, error.message), tenant });
      return;
    }
    let result;
    try {
      result = await writer.upsert(kind, resource.metadata.uid, tenant, input);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code !== 'CONFLICT') throw error;
      const message = (error as Error).message;
      await writeStatus(kind, resource, redactStatus({ observedGeneration: resource.metadata.generation ?? 0, conditions: conditions(resource, false, 'Conflict', message), tenant }, secretsOfSpec(kind, input)));
      return;
    }
    const revision = result.changed ? await options.publisher.syncNow() : (options.publisher.revision ?? (await options.publisher.syncNow()));
    if (result.changed) {
      log?.info({ kind, namespace, name, revision }, 'record reconciled');
      if (kind !== 'SecurityProfile') enqueueNamespace(['SecurityProfile'], namespace);
    }
    const status: Record<string, unknown> = {
      observedGeneration: resource.metadata.generation ?? 0,
      conditions: conditions(resource, true, 'Reconciled', `record ${result.record.id} is in the policy bundle`),
      recordId: result.record.id,
      tenant,
      bundleRevision: revision,
    };
    if (kind === 'Provider') status.health = healthOf(result.record as unknown as Provider);
    await writeStatus(kind, resource, redactStatus(status, secretsOfSpec(kind, input)));
  }

  const queue: WorkQueue = createWorkQueue({
    handler: reconcile,
    ...(options.baseBackoffMs !== undefined ? { baseBackoffMs: options.baseBackoffMs } : {}),
    onError: (key, error, retryInMs) => log?.warn({ key, err: error, retryInMs }, 'reconcile failed; retrying'),
  });

  /** A watch that failed (not a clean end, which the informer reconnects itself) restarts with backoff. */
  function keepWatching(informer: Informer<CustomResource> | Informer<V1Secret>, what: string) {
    let failures = 0;
    informer.on(ERROR, (error: unknown) => {
      if (stopped) return;
      const delay = Math.min(30_000, 200 * 2 ** failures++);
      log?.warn({ what, err: error, retryInMs: delay }, 'watch failed; restarting');
      const timer = setTimeout(() => {
        restartTimers.delete(timer);
        if (!stopped) informer.start().catch(() => undefined);
      }, delay);
      restartTimers.add(timer);
    });
    informer.on('connect', () => {
      failures = 0;
    });
  }

  return {
    async start() {
      stopped = false;
      secretInformer = options.kube.secretInformer(options.namespace);
      const onSecret = (secret: V1Secret) => enqueueNamespace(['Provider', 'EventExporter'], secret.metadata?.namespace);
      secretInformer.on(ADD, onSecret);
      secretInformer.on(UPDATE, onSecret);
      secretInformer.on(DELETE, onSecret);
      keepWatching(secretInformer, 'secrets');
      for (const { kind } of KINDS) {
        const informer = options.kube.resourceInformer(kind, options.namespace);
        const enqueue = (o: CustomResource) => queue.add(keyOf(kind, o.metadata.namespace, o.metadata.name));
        informer.on(ADD, enqueue);
        informer.on(UPDATE, enqueue);
        informer.on(DELETE, enqueue);
        keepWatching(informer, kind);
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
      for (const timer of restartTimers) clearTimeout(timer);
      restartTimers.clear();
      await Promise.all([...informers.values()].map((i) => i.stop()));
      await secretInformer?.stop();
      await queue.shutdown();
      informers.clear();
    },
  };
}
