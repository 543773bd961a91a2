// A small typed layer over @kubernetes/client-node for what the operator does: list and watch the
// four palisade.io kinds and Secrets, read Namespaces, patch status and finalizers with merge patches.
import {
  CoordinationV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  PatchStrategy,
  makeInformer,
  setHeaderOptions,
  type Informer,
  type ListPromise,
  type ObjectCache,
  type KubernetesObject,
  type V1Secret,
} from '@kubernetes/client-node';
import { GROUP, KINDS, VERSION, type KindName } from '../crd/kinds.js';

export interface CustomResource extends KubernetesObject {
  metadata: NonNullable<KubernetesObject['metadata']> & { name: string; namespace: string; uid: string };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
}

/** KUBECONFIG (a path), else the in-cluster service account, else ~/.kube/config. */
export function loadKubeConfig(options: { kubeconfig?: string | undefined; server?: string | undefined } = {}): KubeConfig {
  const kc = new KubeConfig();
  if (options.server) {
    kc.loadFromOptions({
      clusters: [{ name: 'palisade', server: options.server, skipTLSVerify: true }],
      users: [{ name: 'palisade' }],
      contexts: [{ name: 'palisade', cluster: 'palisade', user: 'palisade' }],
      currentContext: 'palisade',
    });
  } else if (options.kubeconfig) kc.loadFromFile(options.kubeconfig);
  else if (process.env.KUBERNETES_SERVICE_HOST) kc.loadFromCluster();
  else kc.loadFromDefault();
  return kc;
}

const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

export function pluralOf(kind: KindName): string {
  return KINDS.find((k) => k.kind === kind)!.plural;
}

/** The HTTP status of a failed client call, when there is one. */
export function statusCodeOf(error: unknown): number | undefined {
  const e = error as { code?: unknown; statusCode?: unknown };
  if (typeof e?.code === 'number') return e.code;
  if (typeof e?.statusCode === 'number') return e.statusCode;
  return undefined;
}

export type CachedInformer<T extends KubernetesObject> = Informer<T> & ObjectCache<T>;

export interface KubeClient {
  readonly config: KubeConfig;
  /** An informer (list + watch) of one kind; `namespace` limits it to one namespace. */
  resourceInformer(kind: KindName, namespace?: string): CachedInformer<CustomResource>;
  secretInformer(namespace?: string): CachedInformer<V1Secret>;
  /** Merge-patches metadata (finalizers); `resourceVersion` makes it conditional. */
  patchMetadata(kind: KindName, namespace: string, name: string, metadata: Record<string, unknown>): Promise<CustomResource>;
  /** Merge-patches the status subresource. */
  patchStatus(kind: KindName, namespace: string, name: string, status: Record<string, unknown>): Promise<CustomResource>;
  /** A namespace's labels, or null when it cannot be read. */
  namespaceLabels(name: string): Promise<Record<string, string> | null>;
  readonly coordination: CoordinationV1Api;
}

export function createKubeClient(config: KubeConfig): KubeClient {
  const custom = config.makeApiClient(CustomObjectsApi);
  const core = config.makeApiClient(CoreV1Api);
  const coordination = config.makeApiClient(CoordinationV1Api);
  const base = `/apis/${GROUP}/${VERSION}`;

  return {
    config,
    coordination,
    resourceInformer(kind, namespace) {
      const plural = pluralOf(kind);
      const path = namespace ? `${base}/namespaces/${namespace}/${plural}` : `${base}/${plural}`;
      // The custom objects API answers untyped JSON: a list of this kind's objects.
      const listFn: ListPromise<CustomResource> = () =>
        namespace
          ? custom.listNamespacedCustomObject({ group: GROUP, version: VERSION, namespace, plural })
          : custom.listClusterCustomObject({ group: GROUP, version: VERSION, plural });
      return makeInformer<CustomResource>(config, path, listFn);
    },
    secretInformer(namespace) {
      const path = namespace ? `/api/v1/namespaces/${namespace}/secrets` : '/api/v1/secrets';
      const listFn = () => (namespace ? core.listNamespacedSecret({ namespace }) : core.listSecretForAllNamespaces());
      return makeInformer<V1Secret>(config, path, listFn);
    },
    async patchMetadata(kind, namespace, name, metadata) {
      return (await custom.patchNamespacedCustomObject(
        { group: GROUP, version: VERSION, namespace, plural: pluralOf(kind), name, body: { metadata } },
        mergePatch,
      )) as CustomResource;
    },
    async patchStatus(kind, namespace, name, status) {
      return (await custom.patchNamespacedCustomObjectStatus(
        { group: GROUP, version: VERSION, namespace, plural: pluralOf(kind), name, body: { status } },
        mergePatch,
      )) as CustomResource;
    },
    async namespaceLabels(name) {
      try {
        const ns = await core.readNamespace({ name });
        return ns.metadata?.labels ?? {};
      } catch (error) {
        if (statusCodeOf(error) === 404 || statusCodeOf(error) === 403) return null;
        throw error;
      }
    },
  };
}
