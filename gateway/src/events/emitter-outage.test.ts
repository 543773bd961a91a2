import t from 'tap';
import { setTimeout as sleep } from 'node:timers/promises';
import { createStreamOutage } from './emitter-outage.js';

function setup() {
  const lines: Array<{ level: string; msg: string }> = [];
  const at = (level: string) => (_obj: unknown, msg?: string) => void lines.push({ level, msg: msg ?? '' });
  let retries = 0;
  const outage = createStreamOutage({
    stream: 'test',
    logger: { info: at('info'), warn: at('warn'), error: at('error') },
    counts: { emitted: 0, appended: 0, dropped: 0, failures: 0, buildErrors: 0, replayed: 0 },
    spill: undefined,
    retryInitialMs: 20,
    retryMaxMs: 1_000,
    maxBuffer: 10,
    buffered: () => 0,
    retry: () => void retries++,
    // The middle of the jitter: each delay is exact.
    random: () => 0.5,
  });
  t.teardown(() => outage.stop());
  /** Waits out the retry that is pending. */
  const retried = async () => {
    const before = retries;
    while (retries === before) await sleep(2);
  };
  return { outage, lines, retried };
}

t.test('the delay doubles per failed try; failures of appends out together share one', async (t) => {
  const { outage, lines, retried } = setup();
  t.equal(outage.degraded, false);
  outage.failed(new Error('down'), true);
  t.equal(outage.degraded, true);
  t.equal(outage.retryInMs, 20, 'the first delay');
  outage.failed(new Error('down'), true);
  t.equal(outage.retryInMs, 20, 'a failure while a retry waits changes nothing');
  await retried();
  t.equal(outage.waiting, false);
  outage.failed(new Error('down'), true);
  t.equal(outage.retryInMs, 40, 'the next try failed alone: doubled');
  await retried();
  outage.failed(new Error('down'), false);
  t.equal(outage.retryInMs, 40, 'other appends were out: the same delay');
  await retried();
  outage.failed(new Error('down'), true);
  t.equal(outage.retryInMs, 80);
  t.equal(lines.filter((l) => l.level === 'warn').length, 1, 'the outage is said once');
});

t.test('close hurries the retry: the next one waits the first delay again, still degraded', async (t) => {
  const { outage, retried } = setup();
  outage.failed(new Error('down'), true);
  await retried();
  outage.failed(new Error('down'), true);
  t.equal(outage.retryInMs, 40);
  outage.hurry();
  t.equal(outage.waiting, false, 'the waiting retry is cancelled');
  t.equal(outage.degraded, true);
  outage.failed(new Error('down'), false);
  t.equal(outage.retryInMs, 20);
});

t.test('a success ends the outage: said once, and the next failure starts over', async (t) => {
  const { outage, lines, retried } = setup();
  outage.failed(new Error('down'), true);
  await retried();
  outage.failed(new Error('down'), true);
  await retried();
  outage.recovered();
  outage.recovered();
  t.equal(outage.degraded, false);
  t.same(
    lines.map((l) => l.level),
    ['warn', 'info'],
  );
  outage.failed(new Error('down again'), true);
  t.equal(outage.retryInMs, 20, 'from the first delay');
  t.equal(lines.filter((l) => l.level === 'warn').length, 2, 'a new outage is said again');
});
