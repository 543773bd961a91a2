// The alternating rounds of the tracing pair: the order reverses every round, so a machine that slows
// down steadily during the measurement weighs on both sides alike, and the totals give the ratio.
import t from 'tap';
import { alternateRounds, type PairSegment } from './tracing-pair.js';

/** A machine whose speed falls by 5 % per segment, and a traced side 4 % slower than the untraced one. */
function driftingMachine() {
  const order: string[] = [];
  let segments = 0;
  const segment = async (side: 'off' | 'on'): Promise<PairSegment> => {
    order.push(side);
    const speed = 1 - 0.05 * segments++;
    const rps = 1000 * speed * (side === 'on' ? 0.96 : 1);
    return { requests: rps * 2, durationSec: 2, rps, cpuSeconds: (rps * 2 * (side === 'on' ? 0.21 : 0.2)) / 1000, failed: false };
  };
  return { order, segment };
}

t.test('rounds alternate off-on, on-off, … and the ratio of the totals sees through a steady drift', async (t) => {
  const machine = driftingMachine();
  const pair = await alternateRounds(4, machine.segment);
  t.same(machine.order, ['off', 'on', 'on', 'off', 'off', 'on', 'on', 'off']);
  t.equal(pair.rounds.length, 4);
  t.ok(Math.abs(pair.onRps / pair.offRps - 0.96) < 0.005, `ratio ${(pair.onRps / pair.offRps).toFixed(4)} is the sides' own 0.96`);
  t.ok(Math.abs(pair.cpuMsPerRequest!.on - 0.21) < 1e-9 && Math.abs(pair.cpuMsPerRequest!.off - 0.2) < 1e-9, 'CPU per call from the totals');
  t.equal(pair.failures, 0);

  // The same machine measured off for all rounds first, then on (scenarios one after the other): the drift is read as cost.
  const sequential = driftingMachine();
  const offRps: number[] = [];
  const onRps: number[] = [];
  for (let i = 0; i < 4; i++) offRps.push((await sequential.segment('off')).rps);
  for (let i = 0; i < 4; i++) onRps.push((await sequential.segment('on')).rps);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  t.ok(sum(onRps) / sum(offRps) < 0.8, 'one after the other, the same sides read below 0.8');
});

t.test('a segment with errors is counted, and a side whose CPU could not be read gives no CPU figure', async (t) => {
  let n = 0;
  const pair = await alternateRounds(2, async (side) => ({ requests: 100, durationSec: 1, rps: 100, cpuSeconds: side === 'on' ? undefined : 0.02, failed: n++ === 1 }));
  t.equal(pair.failures, 1);
  t.equal(pair.cpuMsPerRequest, undefined);
});
