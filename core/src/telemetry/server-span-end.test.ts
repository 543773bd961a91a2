// How a sampled request's server span ends: with the answer (named by its route, the status sent), or
// as an error when the client leaves before the answer. The SDK is started once per process, so this
// file has its own.
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createService } from '../service/create-service.js';
import { startTracedProcess } from '../testing/otlp-receiver.js';

t.test("a sampled request's server span ends with the answer, or as an error when the client leaves first", async (t) => {
  const { receiver } = await startTracedProcess(t, { serviceName: 'span-end-test', sampler: 'parentbased_traceidratio', samplerArg: '0' });

  const { app } = createService({ name: 'probe', logLevel: 'silent' });
  // Set on every request: declared, so each request object is built with them (one shape for all).
  t.ok(app.hasRequestDecorator('traceContext') && app.hasRequestDecorator('traceId'), 'the request properties tracing sets are declared');
  app.get('/items/:id', async () => ({ ok: true }));
  app.get('/slow', async () => {
    await new Promise((resolve) => setTimeout(resolve, 500));
    return { late: true };
  });
  t.teardown(() => app.close());
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  // The caller's sampled flag decides (the ratio alone, 0, would sample nothing).
  const sampledBy = (traceId: string) => `00-${traceId}-${randomBytes(8).toString('hex')}-01`;

  const answered = randomBytes(16).toString('hex');
  const ok = await fetch(`http://127.0.0.1:${port}/items/7`, { headers: { traceparent: sampledBy(answered) } });
  t.equal(ok.status, 200);

  const left = randomBytes(16).toString('hex');
  await new Promise<void>((resolve) => {
    const call = request({ host: '127.0.0.1', port, path: '/slow', headers: { traceparent: sampledBy(left) } });
    call.on('error', () => resolve());
    call.end();
    setTimeout(() => {
      call.destroy();
      resolve();
    }, 100);
  });

  const spans = await receiver.waitFor((all) => [answered, left].every((id) => all.some((s) => s.traceId === id)));
  const done = spans.find((s) => s.traceId === answered)!;
  t.equal(done.name, 'GET /items/:id', 'named by its route');
  t.match(done.attributes, { 'http.route': '/items/:id', 'http.response.status_code': 200 });
  t.equal(done.statusCode, 0, 'an answered request is not an error');
  const gone = spans.find((s) => s.traceId === left)!;
  t.equal(gone.statusCode, 2, 'the client left before the answer: an error');
  t.notOk('http.response.status_code' in gone.attributes, 'no status was sent');
});
