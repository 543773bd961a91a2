// A Kubernetes API server for tests, on 127.0.0.1, speaking what the operator and
// @kubernetes/client-node use: namespaced CRUD with list and watch (newline-delimited JSON events,
// replay from a resourceVersion, 410 Gone for one older than the history), a global resourceVersion
// counter, metadata.generation bumped on spec changes only, the status subresource, finalizers
// (DELETE marks deletionTimestamp while finalizers remain; removing the last one deletes), merge patch
// and JSON patch, optimistic concurrency on metadata.resourceVersion, for the four palisade.io kinds,
// Secrets, Namespaces and coordination.k8s.io Leases. Custom resources are defaulted and validated
// against the generated CRDs (schema and CEL rules, crd-validation.ts): a bad manifest gets 422.
//
// Hand-written because no package for Node provides one (envtest ships Go binaries of kube-apiserver
// and etcd, which these tests cannot download), and a mock object would not exercise the real client.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KINDS } from '../crd/kinds.js';
import jsonPatch, { type Operation as JsonPatchOperation } from 'fast-json-patch';
import { apply as applyMergePatch } from 'json-merge-patch';
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

interface ResourceType {
  /** URL prefix of the API group: `/apis/palisade.io/v1alpha1` or `/api/v1`. */
  prefix: string;
  plural: string;
  kind: string;
  apiVersion: string;
  namespaced: boolean;
  /** Custom resources: status subresource and generation. */
  custom: boolean;
}

const RESOURCE_TYPES: ResourceType[] = [
  ...KINDS.map((k) => ({ prefix: '/apis/palisade.io/v1alpha1', plural: k.plural, kind: k.kind, apiVersion: 'palisade.io/v1alpha1', namespaced: true, custom: true })),
  { prefix: '/api/v1', plural: 'secrets', kind: 'Secret', apiVersion: 'v1', namespaced: true, custom: false },
  { prefix: '/api/v1', plural: 'namespaces', kind: 'Namespace', apiVersion: 'v1', namespaced: false, custom: false },
  { prefix: '/apis/coordination.k8s.io/v1', plural: 'leases', kind: 'Lease', apiVersion: 'coordination.k8s.io/v1', namespaced: true, custom: false },
];

interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  object: KubeObject;
  rv: number;
}

interface Watcher {
  type: ResourceType;
  namespace: string | undefined;
  res: ServerResponse;
}

class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

export interface TestKubeApiServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Ends every open watch stream (graceful: the response ends; else the socket is destroyed). */
  dropWatches(options?: { graceful?: boolean }): number;
  /** Forgets the event history: a watch from an older resourceVersion gets 410 Gone. */
  compactHistory(): void;
  /** Direct access for assertions and set-up, bypassing HTTP. */
  get(plural: string, namespace: string | undefined, name: string): KubeObject | undefined;
  /** Requests seen, as `METHOD path?query`. */
  readonly requests: string[];
  close(): Promise<void>;
}

export async function startTestKubeApiServer(): Promise<TestKubeApiServer> {
  let resourceVersion = 0;
  const stores = new Map<string, Map<string, KubeObject>>(RESOURCE_TYPES.map((t) => [t.plural, new Map()]));
  let history: WatchEvent[] = [];
  let compactedBefore = 0;
  const watchers = new Set<Watcher>();
  const requests: string[] = [];
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
    for (const watcher of watchers) {
      if (watcher.type !== type) continue;
      if (watcher.namespace && watcher.namespace !== object.metadata.namespace) continue;
      watcher.res.write(`${JSON.stringify({ type: entry.type, object: entry.object })}\n`);
    }
  }

  function parse(path: string): { type: ResourceType; namespace?: string; name?: string; status: boolean } {
    for (const type of RESOURCE_TYPES) {
      if (!path.startsWith(`${type.prefix}/`)) continue;
      const parts = path.slice(type.prefix.length + 1).split('/').map(decodeURIComponent);
      if (type.namespaced) {
        if (parts.length === 1 && parts[0] === type.plural) return { type, status: false };
        if (parts[0] === 'namespaces' && parts[2] === type.plural && parts.length >= 3 && parts.length <= 5) {
          if (parts.length === 5 && parts[4] !== 'status') continue;
          return { type, namespace: parts[1]!, ...(parts[3] ? { name: parts[3] } : {}), status: parts[4] === 'status' };
        }
      } else if (parts[0] === type.plural && parts.length <= 2) {
        return { type, ...(parts[1] ? { name: parts[1] } : {}), status: false };
      }
    }
    throw new ApiError(404, 'NotFound', `the server could not find the requested resource (${path})`);
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

  function watch(type: ResourceType, namespace: string | undefined, query: URLSearchParams, res: ServerResponse) {
    const from = query.get('resourceVersion');
    const since = from ? Number(from) : NaN;
    if (!Number.isNaN(since) && since > 0 && since < compactedBefore) {
      // An expired resourceVersion: 200 with an ERROR event, as the API server answers.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`${JSON.stringify({ type: 'ERROR', object: status(410, 'Expired', `too old resource version: ${since}`) })}\n`);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
    // Headers go out now: the client's fetch resolves on them, before any event.
    res.flushHeaders();
    const watcher: Watcher = { type, namespace, res };
    const matches = (o: KubeObject) => !namespace || o.metadata.namespace === namespace;
    if (Number.isNaN(since) || since === 0) {
      for (const object of list(type, namespace).items) res.write(`${JSON.stringify({ type: 'ADDED', object })}\n`);
    } else {
      for (const event of history) {
        if (event.rv > since && RESOURCE_TYPES.find((t) => t.kind === event.object.kind) === type && matches(event.object)) {
          res.write(`${JSON.stringify({ type: event.type, object: event.object })}\n`);
        }
      }
    }
    watchers.add(watcher);
    res.on('close', () => watchers.delete(watcher));
  }

  const status = (code: number, reason: string, message: string) => ({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });

  async function readBody(req: IncomingMessage): Promise<unknown> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    if (!text) return undefined;
    try {
      return JSON.parse(text);
    } catch {
      throw new ApiError(400, 'BadRequest', 'the request body is not JSON');
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    const { type, namespace, name, status: statusPath } = parse(url.pathname);
    const send = (code: number, body: unknown) => {
      res.writeHead(code, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (!name) {
      if (req.method === 'GET' && url.searchParams.get('watch') === 'true') return watch(type, namespace, url.searchParams, res);
      if (req.method === 'GET') return send(200, list(type, namespace));
      if (req.method === 'POST') {
        if (type.namespaced && !namespace) throw new ApiError(405, 'MethodNotAllowed', 'create needs a namespace');
        return send(201, create(type, namespace, (await readBody(req)) as KubeObject));
      }
      throw new ApiError(405, 'MethodNotAllowed', `${req.method} is not allowed here`);
    }
    const current = load(type, namespace, name);
    switch (req.method) {
      case 'GET':
        return send(200, current);
      case 'PUT':
        return send(200, write(type, current, (await readBody(req)) as KubeObject, statusPath));
      case 'PATCH': {
        const body = await readBody(req);
        const contentType = String(req.headers['content-type'] ?? '').split(';')[0];
        let patched: unknown;
        try {
          if (contentType === 'application/merge-patch+json') patched = applyMergePatch(structuredClone(current), body);
          else if (contentType === 'application/json-patch+json') patched = jsonPatch.applyPatch(current, body as JsonPatchOperation[], true, false).newDocument;
          else throw new ApiError(415, 'UnsupportedMediaType', `unsupported patch type ${contentType}`);
        } catch (error) {
          if (error instanceof jsonPatch.JsonPatchError) throw new ApiError(422, 'Invalid', error.message);
          throw error;
        }
        // A patch without a resourceVersion applies to the latest object.
        const next = patched as KubeObject;
        if (!(body as { metadata?: { resourceVersion?: string } } | undefined)?.metadata?.resourceVersion && contentType === 'application/merge-patch+json') {
          next.metadata = { ...next.metadata, resourceVersion: current.metadata.resourceVersion! };
        }
        return send(200, write(type, current, next, statusPath));
      }
      case 'DELETE':
        return send(200, remove(type, current));
      default:
        throw new ApiError(405, 'MethodNotAllowed', `${req.method} is not allowed here`);
    }
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const apiError = error instanceof ApiError ? error : new ApiError(500, 'InternalError', String(error));
      if (!res.headersSent) {
        res.writeHead(apiError.code, { 'content-type': 'application/json' });
        res.end(JSON.stringify(status(apiError.code, apiError.reason, apiError.message)));
      } else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    dropWatches({ graceful = false } = {}) {
      const n = watchers.size;
      for (const watcher of [...watchers]) {
        watchers.delete(watcher);
        if (graceful) watcher.res.end();
        else watcher.res.destroy();
      }
      return n;
    },
    compactHistory() {
      compactedBefore = resourceVersion + 1;
      history = [];
    },
    get(plural, namespace, name) {
      const found = stores.get(plural)?.get(key(namespace, name));
      return found ? structuredClone(found) : undefined;
    },
    async close() {
      for (const watcher of watchers) watcher.res.destroy();
      watchers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
