import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { runPaced } from './paced.js';

t.test('the paced load spreads its requests over the second instead of sending them in one burst', async (t) => {
  const arrivals: number[] = [];
  const server = createServer((req, res) => {
    arrivals.push(performance.now());
    req.resume();
    req.on('end', () => res.end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const m = await runPaced({ url, method: 'POST', path: '/v1/chat', headers: { 'content-type': 'application/json' }, body: '{}', connections: 10, durationSec: 1, warmupSec: 0 }, 100);
  // Every request that came due was sent, or counted as an error when all connections were still busy
  // (a loaded machine answers late): the pacer never queues and never sends more than the rate.
  const due = m.requests + m.errors;
  t.ok(due >= 80 && due <= 101, `${m.requests} answered + ${m.errors} skipped at 100 req/s for 1 s`);
  t.ok(m.requests > 0);
  t.equal(m.non2xx, 0);
  t.ok(m.p50 > 0);
  // A burst would put (nearly) all of them into the first few milliseconds.
  const first = arrivals[0]!;
  const inFirstQuarter = arrivals.filter((a) => a - first < 250).length;
  t.ok(inFirstQuarter < arrivals.length * 0.6, `${inFirstQuarter} of ${arrivals.length} in the first 250 ms`);
});
