// A Kubernetes API server for tests, on 127.0.0.1, speaking what the operator and
// @kubernetes/client-node use: namespaced CRUD with list and watch (newline-delimited JSON events,
// replay from a resourceVersion, 410 Gone for one older than the history), the status subresource,
// merge patch (json-merge-patch) and JSON patch (fast-json-patch), for the four palisade.io kinds,
// Secrets, Namespaces and coordination.k8s.io Leases. What happens to stored objects (versions,
// generation, finalizers, CRD validation) is kube-objects.ts.
//
// Hand-written because no package for Node provides one (envtest ships Go binaries of kube-apiserver
// and etcd, which these tests cannot download), and a mock object would not exercise the real client.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import jsonPatch, { type Operation as JsonPatchOperation } from 'fast-json-patch';
import { apply as applyMergePatch } from 'json-merge-patch';
import { ApiError, createKubeObjectStore, RESOURCE_TYPES, statusBody, type KubeObject, type ResourceType } from './kube-objects.js';

export type { KubeObject } from './kube-objects.js';

interface Watcher {
  type: ResourceType;
  namespace: string | undefined;
  res: ServerResponse;
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
  const watchers = new Set<Watcher>();
  const requests: string[] = [];
  const objects = createKubeObjectStore((type, event) => {
    for (const watcher of watchers) {
      if (watcher.type !== type) continue;
      if (watcher.namespace && watcher.namespace !== event.object.metadata.namespace) continue;
      watcher.res.write(`${JSON.stringify({ type: event.type, object: event.object })}\n`);
    }
  });
  const { create, write, remove, list, load } = objects;

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

  function watch(type: ResourceType, namespace: string | undefined, query: URLSearchParams, res: ServerResponse) {
    const from = query.get('resourceVersion');
    const since = from ? Number(from) : NaN;
    if (!Number.isNaN(since) && objects.expired(since)) {
      // An expired resourceVersion: 200 with an ERROR event, as the API server answers.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`${JSON.stringify({ type: 'ERROR', object: statusBody(410, 'Expired', `too old resource version: ${since}`) })}\n`);
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
      for (const event of objects.eventsAfter(since)) {
        if (RESOURCE_TYPES.find((t) => t.kind === event.object.kind) === type && matches(event.object)) {
          res.write(`${JSON.stringify({ type: event.type, object: event.object })}\n`);
        }
      }
    }
    watchers.add(watcher);
    res.on('close', () => watchers.delete(watcher));
  }

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
        res.end(JSON.stringify(statusBody(apiError.code, apiError.reason, apiError.message)));
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
    compactHistory: () => objects.compact(),
    get(plural, namespace, name) {
      const type = RESOURCE_TYPES.find((t) => t.plural === plural);
      const found = type && objects.get(type, namespace, name);
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
