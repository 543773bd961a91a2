// The gateway's in-process PII detector on long texts: the scan runs in a worker thread, so the event
// loop answers other requests meanwhile, and detector_timeout_ms stops the wait for a long text.
import t from 'tap';
import { forOneDatabase } from '@palisade/core/testing';
import { startStack } from '../testing/stack.js';
import { createInspectionDetectors } from './detectors.js';

const chat = (user: string) => ({ model: 'gpt-x', messages: [{ role: 'user', content: user }] });
/** Nearly 1 MiB of prose with contacts in it, the address last: within the default max_inspected_chars. */
const longPrompt = (tail: string) => `${'Please call +7 916 123-45-67 about the quarterly report and its figures. '.repeat(13_500)}Reply to ${tail}`;

t.test('a long text is inspected off the event loop', async (t) => {
  await forOneDatabase(t, async (t, db) => {
    // One PII worker, so the test can fill its queue through the same detector the gateway uses.
    const detectors = await createInspectionDetectors({ env: { GATEWAY_PII_WORKERS: '1' } });
    // Watches (does not change) the gateway's PII calls: true while a long text is being inspected.
    const pii = detectors.pii;
    let scanning = false;
    detectors.pii = {
      kind: 'pii',
      async detect(request, call) {
        const long = request.text.length > 100_000;
        if (long) scanning = true;
        try {
          return await pii.detect(request, call);
        } finally {
          if (long) scanning = false;
        }
      },
    };
    const stack = await startStack({ db, detectors });
    t.teardown(() => stack.close());

    t.test('a health request is answered while a 1 MiB prompt is scanned, and the prompt is masked', async (t) => {
      // A long detector timeout: on a busy machine the scan must not time out (and pass) instead.
      const { send } = await stack.profiled({ pii: { types: ['EMAIL', 'PHONE_NUMBER'], mode: 'mask' }, detector_timeout_ms: 60_000 });
      stack.mock.reset();
      let answered = false;
      const inspected = send(chat(longPrompt('ivan.petrov@example.com'))).finally(() => (answered = true));
      // Health requests sent and answered while the scan runs: with the scan on the event loop (a
      // synchronous 1 MiB scan) no request could be answered between its start and its end.
      let duringScan = 0;
      while (!answered) {
        if (!scanning) {
          await new Promise((resolve) => setImmediate(resolve));
          continue;
        }
        const health = await stack.call('GET', '/health/live');
        if (health.status !== 200) t.fail(`health: ${health.status}`);
        if (scanning) duringScan++;
        else break;
      }
      const res = await inspected;
      t.ok(duringScan >= 1, `${duringScan} health requests answered during the scan`);
      t.equal(res.status, 200);
      t.equal(res.headers['x-service-decision'], 'sanitize');
      const sent = (stack.mock.requests.at(-1)?.body as ReturnType<typeof chat>).messages[0]!.content;
      t.ok(sent.endsWith('Reply to i***@example.com'), 'the address at the end of 1 MiB is masked');
      t.notOk(sent.includes('916 123-45-67'), 'every phone masked');
    });

    t.test('detector_timeout_ms stops the wait for a long text in the workers', async (t) => {
      const { send } = await stack.profiled({
        pii: { types: ['EMAIL'], mode: 'mask' },
        detector_timeout_ms: 100,
        action_on_timeout: 'block',
      });
      stack.mock.reset();
      const order: string[] = [];
      // Ten 1 MiB texts ahead of it in the only worker's queue: far more work than 100 ms.
      const ahead = Array.from({ length: 10 }, () => pii.detect({ text: longPrompt('a@example.com') }));
      const queuedWork = Promise.all(ahead).then(() => order.push('queued work done'));
      const res = await send(chat(longPrompt('ivan.petrov@example.com')));
      order.push('gateway answered');
      t.not(res.status, 200, 'blocked on the timeout');
      t.not(res.status, 413, 'blocked by the timeout, not by a size limit');
      t.equal(stack.mock.requests.length, 0, 'never forwarded');
      await queuedWork;
      t.same(order, ['gateway answered', 'queued work done'], 'answered before the worker could have reached it');
    });
  });
});
