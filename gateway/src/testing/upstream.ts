// Test helpers for the upstream client: a listening mock LLM, an in-process cache and a client, all
// torn down with the test; plus raw HTTP servers for behaviour the mock cannot show.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Test } from 'tap';
import { createMemoryStreams, PalisadeError, type Cache, type Streams } from '@palisade/core';
import { createMockLlm, type MockLlm, type MockLlmOptions } from '@palisade/mock-llm';
import { createUpstreamClient } from '../upstream/client.js';
import type { UpstreamClient, UpstreamClientOptions } from '../upstream/types.js';

export interface Harness {
  mock: MockLlm;
  url: string;
  client: UpstreamClient;
  cache: Cache;
  streams: Streams;
}

export async function startHarness(
  t: Test,
  options: { mock?: MockLlmOptions; client?: Omit<UpstreamClientOptions, 'cache'> } = {},
): Promise<Harness> {
  const mock = createMockLlm(options.mock);
  const url = await mock.listen(0);
  const streams = createMemoryStreams();
  const client = createUpstreamClient({ cache: streams.cache, ...options.client });
  t.teardown(async () => {
    await mock.close();
    await client.close();
    await streams.close();
  });
  return { mock, url, client, cache: streams.cache, streams };
}

export function chatBody(prompt: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content: prompt }], ...extra });
}

export const JSON_HEADERS = { 'content-type': 'application/json' } as const;

/** Runs `fn`, expecting a PalisadeError; returns it with the elapsed milliseconds. */
export async function expectPalisadeError(fn: () => Promise<unknown>): Promise<{ error: PalisadeError; elapsedMs: number }> {
  const started = performance.now();
  try {
    await fn();
  } catch (error) {
    if (error instanceof PalisadeError) return { error, elapsedMs: performance.now() - started };
    throw error;
  }
  throw new Error('expected a PalisadeError, the call succeeded');
}

export interface RawServer {
  url: string;
  server: Server;
  /** Server-side sockets, to check that the client closed them. */
  sockets: Set<Socket>;
  closedSockets: number;
}

/** A plain node:http server answering with `handler`, closed (sockets destroyed) at teardown. */
export async function startRawServer(t: Test, handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<RawServer> {
  const server = createServer(handler);
  const raw: RawServer = { url: '', server, sockets: new Set(), closedSockets: 0 };
  server.on('connection', (socket) => {
    raw.sockets.add(socket);
    socket.on('close', () => {
      raw.sockets.delete(socket);
      raw.closedSockets += 1;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  raw.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of raw.sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return raw;
}

/** A port nothing listens on: listen on 0, note the port, close. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `check` until it holds or `ms` pass. */
export async function waitFor(check: () => boolean, ms = 2000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await sleep(10);
  }
  return check();
}
