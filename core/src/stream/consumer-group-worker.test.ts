import t from 'tap';
import { createConsumerGroupWorker } from './consumer-group-worker.js';
import { createMemoryStreams } from './memory.js';

t.test('a consumer-group worker hands entries to its cycle, retries failures and takes over stale entries', async (t) => {
  const streams = createMemoryStreams();
  t.teardown(() => streams.close());
  const { events } = streams;
  for (let i = 0; i < 5; i++) await events.append('s', { n: String(i) });

  const seen: string[] = [];
  const log: string[] = [];
  let failuresLeft = 2;
  const worker = createConsumerGroupWorker({
    events,
    stream: 's',
    group: 'g',
    consumer: 'one',
    // Failed entries stay pending with this consumer; with no idle time it claims them back at once.
    claimIdleMs: 0,
    retryInitialMs: 1,
    retryMaxMs: 2,
    cycle: async (reader, force) => {
      const entries = await reader.fetch(2, { blockMs: force ? 0 : 20, forceClaim: force });
      if (entries.length > 0 && failuresLeft-- > 0) throw new Error('database down');
      seen.push(...entries.map((e) => (e.payload as { n: string }).n));
      await reader.ack(entries.map((e) => e.id));
      return { read: entries.length };
    },
    onDegraded: (err) => log.push(`degraded: ${err}`),
    onRecovered: () => log.push('recovered'),
  });

  // The first cycle fails and nothing is acked; drainOnce surfaces the failure to its caller.
  await t.rejects(worker.drainOnce(), /database down/);
  t.equal(await events.pending('s', 'g'), 2, 'the failed batch stays pending');

  await worker.start();
  while (seen.length < 5) await new Promise((resolve) => setTimeout(resolve, 5));
  await worker.stop();
  t.same(seen.slice(0, 2).sort(), ['0', '1'], 'the entries of the failed cycle come again');
  t.same([...new Set(seen)].sort(), ['0', '1', '2', '3', '4'], 'every entry handled');
  t.same(log, ['degraded: database down', 'recovered'], 'one warning per outage, one when it ends');
  t.match(worker.state, { running: false, degraded: false, failures: 1 });
  t.equal(await events.pending('s', 'g'), 0, 'all acked');

  // A crashed replica's unacked entry is taken over by another one after claimIdleMs.
  await events.append('s', { n: '5' });
  const [taken] = await events.read('s', 'g', 'crashed', { count: 1 });
  t.ok(taken);
  const other: string[] = [];
  const second = createConsumerGroupWorker({
    events,
    stream: 's',
    group: 'g',
    consumer: 'two',
    claimIdleMs: 0,
    cycle: async (reader) => {
      const entries = await reader.fetch(10, { forceClaim: true });
      other.push(...entries.map((e) => e.id));
      await reader.ack(entries.map((e) => e.id));
      return { read: entries.length };
    },
  });
  t.equal(await second.drainOnce(), 1);
  t.same(other, [taken!.id]);
  t.equal(second.state.claimed, 1);
});
