// Stream backends for the emitter tests: the in-process one always, the real Redis (TEST_REDIS_URL)
// under a random key prefix when it answers — required in CI, skipped with a reason otherwise — and
// two ways to take a stream down: a TCP proxy in front of Redis that can be cut, and, for the
// in-process stream (which cannot go down without losing its contents), a wrapper that fails appends.
import { randomUUID } from 'node:crypto';
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createMemoryStreams, createRedisStreams, type EventStream, type Streams } from '@palisade/core';
import { servicesRequired, TEST_REDIS_URL } from '@palisade/core/testing';

export interface StreamBackend {
  name: 'memory' | 'redis';
  /** A fresh bundle; for Redis every call shares one random prefix, so two bundles see one stream. */
  open(urlOverride?: string): Promise<Streams>;
  skipReason?: string;
}

export async function streamBackends(): Promise<StreamBackend[]> {
  const memory: StreamBackend = { name: 'memory', open: async () => createMemoryStreams() };
  const keyPrefix = `test:${randomUUID()}:`;
  const openRedis = (url: string) => createRedisStreams({ url, keyPrefix, connectTimeoutMs: 1_000, onError: () => {} });
  let skipReason: string | undefined;
  try {
    await (await openRedis(TEST_REDIS_URL)).close();
  } catch (err) {
    const reason = `Redis unreachable at ${TEST_REDIS_URL}: ${(err as Error).message}`;
    if (servicesRequired()) throw new Error(`${reason} — Redis is required here (CI or PALISADE_REQUIRE_SERVICES=1)`);
    skipReason = reason;
  }
  const redis: StreamBackend = { name: 'redis', open: (url) => openRedis(url ?? TEST_REDIS_URL), ...(skipReason ? { skipReason } : {}) };
  return [memory, redis];
}

/** A unique stream name per test, so tests sharing a backend never see each other's entries. */
export const testStream = (label: string) => `test-events:${label}:${randomUUID().slice(0, 8)}`;

/**
 * The real EventStream with appends that fail while `down` is set (the error a closed bundle gives).
 * Also counts append calls and the most appends in flight at once, to observe the emitter's batching.
 */
export function failingAppends(real: EventStream) {
  const state = { down: false, calls: 0, inFlight: 0, maxInFlight: 0 };
  const events: EventStream = {
    append: async (stream, payload) => {
      state.calls++;
      state.inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
      try {
        await Promise.resolve(); // let other appends of the same flush start, as a network call would
        if (state.down) throw new Error('simulated outage: stream unavailable');
        return await real.append(stream, payload);
      } finally {
        state.inFlight--;
      }
    },
    ensureGroup: (...a) => real.ensureGroup(...a),
    dropGroup: (...a) => real.dropGroup(...a),
    read: (...a) => real.read(...a),
    ack: (...a) => real.ack(...a),
    claimStale: (...a) => real.claimStale(...a),
    trimAcked: (...a) => real.trimAcked(...a),
    pending: (...a) => real.pending(...a),
    trim: (...a) => real.trim(...a),
  };
  return { events, state };
}

/**
 * A TCP proxy in front of the Redis at `redisUrl` that can be cut (connections reset, new ones refused)
 * and restored on the same port; `url` is redisUrl with the proxy's address (credentials and db kept).
 */
export async function startRedisProxy(redisUrl = TEST_REDIS_URL) {
  const target = new URL(redisUrl);
  const targetHost = target.hostname;
  const targetPort = Number(target.port || 6379);
  const sockets = new Set<Socket>();
  const handle = (client: Socket): void => {
    const upstream = connect(targetPort, targetHost);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  };
  const listen = (server: Server, port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  let server = createServer(handle);
  await listen(server, 0);
  const port = (server.address() as AddressInfo).port;
  let up = true;

  const cut = async (): Promise<void> => {
    if (!up) return;
    up = false;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const s of sockets) s.destroy();
    await closed;
  };
  const proxied = new URL(redisUrl);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(port);
  return {
    url: proxied.toString(),
    cut,
    async restore(): Promise<void> {
      if (up) return;
      server = createServer(handle);
      await listen(server, port);
      up = true;
    },
    close: cut,
  };
}
