// A burst of inspected calls through the real gateway with a 1 ms slice (GATEWAY_CPU_SLICE_MS): the
// stages wait for loop turns, and every call still gets its own decision, its own rewritten body and
// its own rewritten answer.
import t from 'tap';
import { request } from 'undici';
import { forOneDatabase } from '@palisade/core/testing';
import { startStack } from '../testing/stack.js';

const BURST = 60;

/** Waits for a loop turn so far, both sides: the turn_wait counts of the gateway's /metrics. */
async function turnWaits(gatewayUrl: string): Promise<number> {
  const res = await request(new URL('/metrics', gatewayUrl));
  const lines = (await res.body.text()).split('\n');
  return lines
    .filter((l) => l.startsWith('palisade_inspection_stage_seconds_count') && l.includes('stage="turn_wait"'))
    .reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
}

t.test('a burst under a 1 ms slice: each call decided and rewritten on its own', async (t) => {
  await forOneDatabase(t, async (t, db) => {
    const stack = await startStack({ db, gatewayEnv: { GATEWAY_CPU_SLICE_MS: '1' } });
    t.teardown(() => stack.close());
    const { send } = await stack.profiled({
      pii: { types: ['EMAIL'], mode: 'mask' },
      threat_detection: { enabled: true, jailbreak_threshold: 0.8 },
      response_scanning: { enabled: true, pii_mode: 'mask' },
    });
    stack.mock.reset();
    const waitsBefore = await turnWaits(stack.gatewayUrl);

    // Each call carries its own address and a long text, so a mix-up between calls would show.
    const filler = 'The quarterly report lists the open tickets and the fixes planned for the next release. '.repeat(20);
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        send({ model: 'gpt-x', messages: [{ role: 'user', content: `${filler}Reply to user${i}.name@example.com please.` }] }),
      ),
    );

    for (const [i, res] of answers.entries()) {
      t.equal(res.status, 200, `call ${i} answered`);
      t.equal(res.headers['x-service-decision'], 'sanitize', `call ${i} sanitized`);
      const answer = String(res.json?.choices?.[0]?.message?.content ?? '');
      t.ok(answer.includes('u***@example.com') && !answer.includes(`user${i}.name@`), `call ${i}: its answer carries its own address, masked`);
    }
    const sent = stack.mock.requests.map((r) => String((r.body as { messages: Array<{ content: string }> }).messages[0]!.content));
    t.equal(sent.length, BURST, 'every call went upstream once');
    t.ok(
      sent.every((content) => content.endsWith('Reply to u***@example.com please.')),
      'every upstream body was masked',
    );
    const waitsAfter = await turnWaits(stack.gatewayUrl);
    t.ok(waitsAfter > waitsBefore, `stages waited for a turn (${waitsAfter - waitsBefore} waits)`);
  });
});
