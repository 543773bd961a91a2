// createMockLlm: a fastify server answering every vendor format of the spec (see vendors/).
// All state lives in the returned instance, so tests can run several mocks side by side.
import Fastify from 'fastify';
import type { FastifyRequest } from 'fastify';
import type { AddressInfo } from 'node:net';
import { parseBody } from './body.js';
import { makeHandler } from './handler.js';
import { createOAuthStore } from './oauth.js';
import type { MockLlm, MockLlmOptions, RecordedRequest, VendorRoute } from './types.js';
import { defaultRoutes } from './vendors/index.js';

export function createMockLlm(options: MockLlmOptions = {}): MockLlm {
  const now = options.now ?? Date.now;
  const requests: RecordedRequest[] = [];
  const state = new Map<string, unknown>();
  const oauth = createOAuthStore(options.oauth ?? {}, now);
  const shutdown = new AbortController();
  const rawBodies = new WeakMap<FastifyRequest, string>();
  let url: string | undefined;
  let closing: Promise<void> | undefined;

  const app = Fastify({
    logger: options.logger ?? false,
    // Longer than clients' idle timeout (undici: 4 s), so the client, not the server, closes an
    // idle socket and a reused connection is never reset under the benchmark.
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 65_000,
    // close() must not wait for hanging or slow requests: destroy every open socket.
    forceCloseConnections: true,
    bodyLimit: options.bodyLimit ?? 16 * 1024 * 1024,
  });

  // One lenient parser for every content type (see body.ts), keeping the raw text for records.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (request, raw, done) => {
    const text = typeof raw === 'string' ? raw : raw.toString('utf8');
    rawBodies.set(request, text);
    done(null, parseBody(text, request.headers['content-type']));
  });

  const limit = options.recordLimit ?? 100_000;
  const record = (request: FastifyRequest, route: string | undefined): RecordedRequest | undefined => {
    if (limit <= 0) return undefined;
    const rawBody = rawBodies.get(request) ?? '';
    const recorded: RecordedRequest = {
      method: request.method,
      path: request.url,
      headers: { ...request.headers },
      body: rawBody === '' ? undefined : request.body,
      rawBody,
      route,
      receivedAt: now(),
    };
    requests.push(recorded);
    // Trim in batches (10% over the limit) so a long benchmark neither grows without bound nor
    // pays an array shift on every request.
    if (requests.length > limit + Math.ceil(limit / 10)) requests.splice(0, requests.length - limit);
    return recorded;
  };

  const deps = { now, echo: options.echo ?? ((p: string) => `Echo: ${p}`), oauth, state, vendorCApiKey: options.vendorCApiKey, shutdown: shutdown.signal, record };
  for (const [key, group] of groupByPath(options.routes ?? defaultRoutes())) {
    const [method, path] = key.split(' ', 2) as [string, string];
    app.route({ method, url: path, handler: makeHandler(group, deps) });
  }
  app.setNotFoundHandler((request, reply) => {
    record(request, undefined);
    void reply.code(404).send({ error: { message: `mock-llm has no route ${request.method} ${request.url}`, type: 'not_found' } });
  });

  return {
    requests,
    oauth,
    get url() {
      return url;
    },
    async listen(port = 0, host = '127.0.0.1') {
      await app.listen({ port, host });
      const address = app.server.address() as AddressInfo;
      url = `http://${displayHost(host)}:${address.port}`;
      return url;
    },
    close() {
      // Idempotent: tests close explicitly and again in teardown.
      shutdown.abort();
      closing ??= app.close();
      return closing;
    },
    reset() {
      requests.length = 0;
      state.clear();
      oauth.resetCount();
    },
  };
}

/** Routes sharing method+path (Google `:modelAction` ones) are served by one handler. */
function groupByPath(routes: VendorRoute[]): Map<string, VendorRoute[]> {
  const groups = new Map<string, VendorRoute[]>();
  for (const route of routes) {
    for (const path of route.paths) {
      const key = `${route.method} ${path}`;
      groups.set(key, [...(groups.get(key) ?? []), route]);
    }
  }
  return groups;
}

/** A wildcard bind address is reached locally through loopback; IPv6 literals need brackets. */
function displayHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
