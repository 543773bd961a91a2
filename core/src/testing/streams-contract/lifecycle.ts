// The contract of a Streams bundle's lifecycle: ping, close, use after close, handles released.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Test } from 'tap';
import { waitFor, type StreamsContractContext } from './context.js';

/** Active handles that keep a process alive (sockets, timers), as Node reports them. */
function liveResources(): number {
  return process.getActiveResourcesInfo().filter((r) => r !== 'FSReqCallback' && r !== 'PipeWrap' && r !== 'TTYWrap').length;
}

/** ping and close: idempotent, ending blocked reads, releasing every handle. */
export function lifecycleContract(t: Test, { factory, uniq }: StreamsContractContext): void {
  t.test('lifecycle: ping, close is idempotent, use after close fails', async (tt) => {
    const s = await factory();
    await s.ping();
    const k = uniq('k');
    await s.cache.set(k, 'v');
    await s.cache.del(k);
    await s.close();
    await s.close();
    await tt.rejects(s.ping(), { code: 'CLOSED' });
    await tt.rejects(s.cache.get(k), { code: 'CLOSED' });
    await tt.rejects(s.events.append('x', { a: 'b' }), { code: 'CLOSED' });
    await tt.rejects(s.pubsub.publish('x', 'y'), { code: 'CLOSED' });
  });

  t.test('lifecycle: close ends a blocked read and releases every handle', async (tt) => {
    await sleep(50); // let sockets of earlier tests finish closing
    const baseline = liveResources();
    const s = await factory();
    const str = uniq('events');
    await s.events.ensureGroup(str, 'g');
    const off = await s.pubsub.subscribe(uniq('ch'), () => undefined);
    await s.cache.slidingWindow(uniq('rl'), 5, 1_000);
    await s.cache.set(uniq('k'), 'v', 10_000);
    const started = Date.now();
    const reading = s.events.read(str, 'g', 'c', { blockMs: 5_000 });
    const reading2 = s.events.read(str, 'g', 'd', { blockMs: 5_000 });
    await sleep(30);
    await s.close();
    tt.same(await reading, [], 'a read blocked at close resolves empty');
    tt.same(await reading2, []);
    tt.ok(Date.now() - started < 1_500, 'and does so promptly');
    await off(); // after close: harmless
    const released = await waitFor(() => liveResources() <= baseline, 2_000);
    tt.ok(released, `no handle left open (baseline ${baseline}, now ${liveResources()}: ${process.getActiveResourcesInfo().join(', ')})`);
  });
}
