// The contract of Streams.pubsub: delivery to every handler of a channel, unsubscribe, handler errors.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Test } from 'tap';
import { waitFor, type StreamsContractContext } from './context.js';

/** Delivery, several handlers, unsubscribe, a throwing handler. */
export function pubsubContract(t: Test, { open, uniq }: StreamsContractContext): void {
  t.test('pubsub: delivery, several handlers, unsubscribe', async (tt) => {
    const { pubsub } = await open(tt);
    const ch = uniq('config');
    const other = uniq('other');
    const a: string[] = [];
    const b: string[] = [];
    const channels: string[] = [];
    const offA = await pubsub.subscribe(ch, (m, c) => {
      a.push(m);
      channels.push(c);
    });
    const offB = await pubsub.subscribe(ch, (m) => b.push(m));
    const offOther = await pubsub.subscribe(other, (m) => b.push(`other:${m}`));
    await pubsub.publish(ch, 'rev-1');
    tt.ok(await waitFor(() => a.length === 1 && b.length === 1), 'both handlers got the message');
    tt.same(a, ['rev-1']);
    tt.same(channels, [ch], 'handler receives the channel name without prefix');
    await offA();
    await offA(); // idempotent
    await pubsub.publish(ch, 'rev-2');
    tt.ok(await waitFor(() => b.length === 2), 'remaining handler still subscribed');
    await offB();
    await pubsub.publish(ch, 'rev-3');
    await sleep(50);
    tt.same(a, ['rev-1'], 'no delivery after unsubscribe');
    tt.same(b, ['rev-1', 'rev-2'], 'no delivery after unsubscribe, nothing crossed channels');
    await offOther();
    await pubsub.publish(uniq('nobody'), 'x'); // publishing without subscribers is fine
  });

  t.test('pubsub: a throwing handler is reported and does not stop the others', async (tt) => {
    const errors: string[] = [];
    const { pubsub } = await open(tt, { onError: (err, ctx) => errors.push(`${ctx}: ${err.message}`) });
    const ch = uniq('ch');
    const got: string[] = [];
    await pubsub.subscribe(ch, () => {
      throw new Error('boom');
    });
    await pubsub.subscribe(ch, (m) => got.push(m));
    await pubsub.publish(ch, 'hello');
    tt.ok(await waitFor(() => got.length === 1 && errors.length === 1));
    tt.match(errors[0], /boom/);
  });
}
