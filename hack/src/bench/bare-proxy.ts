// The benchmark's baseline: a pass-through proxy with no logic at all. It forwards method, path
// (with query), body and the content-type / authorization headers to the upstream over a keep-alive
// undici Pool, and answers with the upstream's status, content-type and body. The gateway's overhead
// is measured against this, so it does exactly the unavoidable work of any HTTP proxy and no more.
//
// Own process: node hack/dist/bench/bare-proxy.js --upstream http://127.0.0.1:8070 --port 8090
// (or BARE_PROXY_UPSTREAM / BARE_PROXY_PORT / BARE_PROXY_HOST).
import Fastify, { type FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';

export interface BareProxyOptions {
  /** Base URL of the upstream, e.g. http://127.0.0.1:8070 (its path, if any, is ignored). */
  upstream: string;
  port: number;
  host?: string;
  /** Upper bound of upstream connections (default 128, above the benchmark's 50 clients). */
  connections?: number;
}

export interface BareProxy {
  url: string;
  close(): Promise<void>;
}

// The mock's pacing and reply controls too: the streaming scenario sends them (absent otherwise).
const FORWARDED = ['content-type', 'authorization', 'x-mock-reply', 'x-mock-chunk-delay-ms'] as const;

export async function startBareProxy(options: BareProxyOptions): Promise<BareProxy> {
  const pool = new Pool(new URL(options.upstream).origin, {
    connections: options.connections ?? 128,
    pipelining: 1,
    // The mock keeps idle sockets 65 s; the pool closes its own idle ones first.
    keepAliveTimeout: 10_000,
  });
  const app: FastifyInstance = Fastify({
    logger: false,
    // Longer than autocannon ever idles, so client connections are never closed under load.
    keepAliveTimeout: 65_000,
    forceCloseConnections: true,
    bodyLimit: 16 * 1024 * 1024,
  });
  // Bodies stay raw bytes whatever their type: nothing is parsed.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.all('/*', async (request, reply) => {
    const headers: Record<string, string> = {};
    for (const name of FORWARDED) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const body = request.body instanceof Buffer && request.body.length > 0 ? request.body : undefined;
    try {
      const upstream = await pool.request({ method: request.method as 'GET', path: request.url, headers, body });
      const contentType = upstream.headers['content-type'];
      if (typeof contentType === 'string') void reply.header('content-type', contentType);
      // A stream is passed on as it arrives (the streaming scenario's baseline), anything else whole.
      if (typeof contentType === 'string' && contentType.startsWith('text/event-stream')) return reply.code(upstream.statusCode).send(upstream.body);
      const bytes = Buffer.from(await upstream.body.arrayBuffer());
      return reply.code(upstream.statusCode).send(bytes);
    } catch (error) {
      return reply.code(502).send({ error: { message: `bare proxy: upstream failed: ${error instanceof Error ? error.message : String(error)}`, type: 'bad_gateway' } });
    }
  });

  const host = options.host ?? '127.0.0.1';
  try {
    await app.listen({ port: options.port, host });
  } catch (error) {
    await pool.close();
    throw error;
  }
  const { port } = app.server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    async close() {
      await app.close();
      await pool.close();
    },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { upstream: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' } },
  });
  const upstream = values.upstream ?? process.env.BARE_PROXY_UPSTREAM;
  if (!upstream) throw new Error('bare-proxy: --upstream <url> (or BARE_PROXY_UPSTREAM) is required');
  const port = Number(values.port ?? process.env.BARE_PROXY_PORT ?? 8090);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`bare-proxy: bad port ${values.port ?? process.env.BARE_PROXY_PORT}`);
  const proxy = await startBareProxy({ upstream, port, host: values.host ?? process.env.BARE_PROXY_HOST ?? '127.0.0.1' });
  process.stdout.write(`bare-proxy listening on ${proxy.url} -> ${upstream}\n`);
  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    void proxy.close().finally(() => process.exit(0));
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
