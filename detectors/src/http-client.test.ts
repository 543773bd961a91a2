// The internal JSON client against a real HTTP peer on loopback: an answer over its limit is the
// service's failure, never a buffer without end.
import t from 'tap';
import { createServer, type Server } from 'node:http';
import { startFloodingPeer } from '@palisade/core/testing';
import { createJsonServiceClient } from './http-client.js';

async function peer(test: { teardown(fn: () => unknown): void }, handler: Parameters<typeof createServer>[1]): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  test.teardown(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, server };
}

const client = (url: string, maxAnswerBytes?: number) =>
  createJsonServiceClient<{ text: string }, { ok: boolean }>({ url, path: '/api/v1/detect', service: 'test detector', timeoutMs: 5_000, ...(maxAnswerBytes ? { maxAnswerBytes } : {}), parse: (body) => body as { ok: boolean } });

t.test('an answer within the limit is parsed', async (t) => {
  const { url } = await peer(t, (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, pad: 'x'.repeat(900) })));
  const c = client(url, 1024);
  t.teardown(() => c.close());
  t.same(await c.call({ text: 'hi' }), { ok: true, pad: 'x'.repeat(900) });
});

t.test('an answer over the limit, or one without end, is SERVICE_UNAVAILABLE and the stream is cut', async (t) => {
  const flood = await startFloodingPeer({ totalBytes: 512 * 1024 * 1024, contentType: 'application/json' });
  t.teardown(() => flood.close());
  const c = client(flood.url, 1024 * 1024);
  t.teardown(() => c.close());
  const error = await c.call({ text: 'hi' }).then(
    () => undefined,
    (e: unknown) => e as { code?: string; message?: string },
  );
  t.equal(error?.code, 'SERVICE_UNAVAILABLE');
  t.match(error?.message, /test detector .* answered with more than 1048576 bytes/);
  t.ok(flood.sentBytes() < 64 * 1024 * 1024, `the peer stopped after ${flood.sentBytes()} bytes`);
});
