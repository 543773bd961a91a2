// The object store behind the test API server (kube-api-server.ts): what the API server does with
// objects regardless of HTTP. A global resourceVersion counter, metadata.generation bumped on spec
// changes only, the status subresource, finalizers (a delete marks deletionTimestamp while finalizers
// remain; removing the last one deletes), optimistic concurrency on metadata.resourceVersion, an event
// history for watches, and custom resources defaulted and validated against the generated CRDs.
import { randomUUID } from 'node:crypto';
import { KINDS } from '../crd/kinds.js';
import { createCustomResourceValidator, ManifestInvalidError } from './crd-validation.js';

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    generation?: number;
    creationTimestamp?: string;
    deletionTimestamp?: string;
    finalizers?: string[];
    labels?: Record<string, string>;
    [key: string]: unknown;
  };
  spec?: unknown;
  status?: unknown;
  [key: string]: unknown;
}

export interface ResourceType {
  /** URL prefix of the API group: `/apis/palisade.io/v1alpha1` or `/api/v1`. */
  prefix: string;
  plural: string;
  kind: string;
  apiVersion: string;
  namespaced: boolean;
  /** Custom resources: status subresource and generation. */
  custom: boolean;
}

export const RESOURCE_TYPES: ResourceType[] = [
  ...KINDS.map((k) => ({ prefix: '/apis/palisade.io/v1alpha1', plural: k.plural, kind: k.kind, apiVersion: 'palisade.io/v1alpha1', namespaced: true, custom: true })),
  { prefix: '/api/v1', plural: 'secrets', kind: 'Secret', apiVersion: 'v1', namespaced: true, custom: false },
  { prefix: '/api/v1', plural: 'namespaces', kind: 'Namespace', apiVersion: 'v1', namespaced: false, custom: false },
  { prefix: '/apis/coordination.k8s.io/v1', plural: 'leases', kind: 'Lease', apiVersion: 'coordination.k8s.io/v1', namespaced: true, custom: false },
];

export interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  object: KubeObject;
  rv: number;
}

export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

export const statusBody = (code: number, reason: string, message: string) => ({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });

/** Observes each stored change (the watches). */
export type ChangeListener = (type: ResourceType, event: WatchEvent) => void;

export function createKubeObjectStore(onChange: ChangeListener) {
  let resourceVersion = 0;
  const stores = new Map<string, Map<string, KubeObject>>(RESOURCE_TYPES.map((t) => [t.plural, new Map()]));
  let history: WatchEvent[] = [];
  let compactedBefore = 0;
  const validator = createCustomResourceValidator();

  /** Defaults and validates a custom resource as the API server does before storing it. */
  function admit(type: ResourceType, object: KubeObject) {
    if (!type.custom) return;
    try {
      validator.admit(type.kind, object);
    } catch (error) {
      if (!(error instanceof ManifestInvalidError)) throw error;
      throw new ApiError(422, 'Invalid', `${type.kind}.${type.apiVersion.split('/')[0]} "${object.metadata.name}" is invalid: ${error.message}`);
    }
  }

  const key = (namespace: string | undefined, name: string) => `${namespace ?? ''}/${name}`;
  const nextVersion = () => String(++resourceVersion);

  function emit(type: ResourceType, event: WatchEvent['type'], object: KubeObject) {
    const entry: WatchEvent = { type: event, object: structuredClone(object), rv: Number(object.metadata.resourceVersion) };
    history.push(entry);
    onChange(type, entry);
  }

  const store = (type: ResourceType) => stores.get(type.plural)!;

  function load(type: ResourceType, namespace: string | undefined, name: string): KubeObject {
    const found = store(type).get(key(namespace, name));
    if (!found) throw new ApiError(404, 'NotFound', `${type.plural} "${name}" not found`);
    return found;
  }

  function checkVersion(current: KubeObject, incoming: KubeObject) {
    const wanted = incoming.metadata?.resourceVersion;
    if (wanted && wanted !== current.metadata.resourceVersion) {
      throw new ApiError(409, 'Conflict', `Operation cannot be fulfilled on ${current.metadata.name}: the object has been modified; please apply your changes to the latest version and try again`);
    }
  }

  function create(type: ResourceType, namespace: string | undefined, body: KubeObject): KubeObject {
    const name = body.metadata?.name;
    if (!name) throw new ApiError(422, 'Invalid', 'metadata.name: Required value');
    if (store(type).has(key(namespace, name))) throw new ApiError(409, 'AlreadyExists', `${type.plural} "${name}" already exists`);
    const object: KubeObject = {
      ...structuredClone(body),
      apiVersion: type.apiVersion,
      kind: type.kind,
      metadata: {
        ...structuredClone(body.metadata),
        ...(namespace ? { namespace } : {}),
        uid: randomUUID(),
        resourceVersion: nextVersion(),
        creationTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
        ...(type.custom ? { generation: 1 } : {}),
      },
    };
    delete object.metadata.deletionTimestamp;
    if (type.custom) delete object.status;
    admit(type, object);
    store(type).set(key(namespace, name), object);
    emit(type, 'ADDED', object);
    return object;
  }

  /** Stores a changed object: generation on spec changes, deletion when the last finalizer goes. */
  function write(type: ResourceType, current: KubeObject, next: KubeObject, statusOnly: boolean): KubeObject {
    checkVersion(current, next);
    let object: KubeObject;
    if (statusOnly) {
      object = { ...structuredClone(current), status: structuredClone(next.status) };
      admit(type, object);
    } else {
      object = {
        ...structuredClone(next),
        apiVersion: type.apiVersion,
        kind: type.kind,
        metadata: {
          ...structuredClone(next.metadata),
          name: current.metadata.name,
          uid: current.metadata.uid!,
          creationTimestamp: current.metadata.creationTimestamp!,
          ...(current.metadata.namespace ? { namespace: current.metadata.namespace } : {}),
          ...(current.metadata.generation ? { generation: current.metadata.generation } : {}),
        },
      };
      if (current.metadata.deletionTimestamp) object.metadata.deletionTimestamp = current.metadata.deletionTimestamp;
      else delete object.metadata.deletionTimestamp;
      if (type.custom) {
        object.status = structuredClone(current.status);
        if (object.status === undefined) delete object.status;
        admit(type, object);
        if (JSON.stringify(current.spec) !== JSON.stringify(object.spec)) object.metadata.generation = (current.metadata.generation ?? 0) + 1;
      }
    }
    if (JSON.stringify({ ...object, metadata: { ...object.metadata, resourceVersion: '' } }) === JSON.stringify({ ...current, metadata: { ...current.metadata, resourceVersion: '' } })) {
      return current; // a no-op write keeps the resourceVersion, as the API server does
    }
    object.metadata.resourceVersion = nextVersion();
    const k = key(current.metadata.namespace, current.metadata.name);
    if (object.metadata.deletionTimestamp && !(object.metadata.finalizers?.length)) {
      store(type).delete(k);
      emit(type, 'DELETED', object);
      return object;
    }
    store(type).set(k, object);
    emit(type, 'MODIFIED', object);
    return object;
  }

  function remove(type: ResourceType, current: KubeObject): KubeObject {
    const k = key(current.metadata.namespace, current.metadata.name);
    if (current.metadata.finalizers?.length) {
      if (current.metadata.deletionTimestamp) return current;
      const marked = structuredClone(current);
      marked.metadata.deletionTimestamp = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
      marked.metadata.resourceVersion = nextVersion();
      store(type).set(k, marked);
      emit(type, 'MODIFIED', marked);
      return marked;
    }
    store(type).delete(k);
    const gone = { ...structuredClone(current), metadata: { ...structuredClone(current.metadata), resourceVersion: nextVersion() } };
    emit(type, 'DELETED', gone);
    return gone;
  }

  function list(type: ResourceType, namespace: string | undefined) {
    const items = [...store(type).values()]
      .filter((o) => !namespace || o.metadata.namespace === namespace)
      .sort((a, b) => Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion));
    return { apiVersion: type.apiVersion, kind: `${type.kind}List`, metadata: { resourceVersion: String(resourceVersion) }, items };
  }

  return {
    create,
    write,
    remove,
    list,
    load,
    /** A stored object, or undefined. */
    get: (type: ResourceType, namespace: string | undefined, name: string) => store(type).get(key(namespace, name)),
    /** Whether events after `since` were forgotten (a watch from there gets 410 Gone). */
    expired: (since: number) => since > 0 && since < compactedBefore,
    /** Events after `since`, oldest first. */
    eventsAfter: (since: number) => history.filter((event) => event.rv > since),
    /** Forgets the event history. */
    compact() {
      compactedBefore = resourceVersion + 1;
      history = [];
    },
  };
}
export type KubeObjectStore = ReturnType<typeof createKubeObjectStore>;
