import t from 'tap';
import { createTurnSlicer, type TurnSlicer } from './turn-slicer.js';

/**
 * A clock that moves only when a stage "works", and a counter of event-loop turns: an immediate that
 * re-arms itself runs once per turn (immediates queued in the check phase wait for the next turn).
 */
function harness(sliceMs = 2) {
  let clock = 0;
  let turn = 0;
  let counting = true;
  const tick = () => {
    turn++;
    if (counting) setImmediate(tick);
  };
  setImmediate(tick);
  const slicer = createTurnSlicer({ sliceMs, now: () => clock });
  return {
    slicer,
    work: (ms: number) => (clock += ms),
    turn: () => turn,
    stop: () => (counting = false),
  };
}

/** A CPU stage as the pipeline runs one: ask for a turn, then work `ms`; resolves with the turn it ran in. */
async function stage(slicer: TurnSlicer, h: ReturnType<typeof harness>, ms: number, log?: number[], id?: number): Promise<number> {
  const wait = slicer.turn();
  if (wait) await wait;
  if (log && id !== undefined) log.push(id);
  h.work(ms);
  return h.turn();
}

t.test('an unloaded stage runs at once, without a promise', async (t) => {
  const h = harness();
  t.equal(h.slicer.turn(), undefined);
  h.work(1);
  t.equal(h.slicer.turn(), undefined, 'still within the 2 ms of this stretch');
  h.stop();
});

t.test('a burst of stages is spread over turns, about sliceMs of work in each, first come first served', async (t) => {
  const h = harness(2);
  const order: number[] = [];
  // 20 stages of 1 ms all ready in the same turn: without the slicer they would all run in this turn.
  const turns = await Promise.all(Array.from({ length: 20 }, (_, i) => stage(h.slicer, h, 1, order, i)));
  h.stop();
  t.same(order, Array.from({ length: 20 }, (_, i) => i), 'in arrival order');
  const perTurn = new Map<number, number>();
  for (const turn of turns) perTurn.set(turn, (perTurn.get(turn) ?? 0) + 1);
  t.ok(Math.max(...perTurn.values()) <= 3, `at most 3 stages of 1 ms in one turn (got ${JSON.stringify([...perTurn])})`);
  t.ok(perTurn.size >= 7, 'the burst took several turns');
  t.equal(h.slicer.waiting, 0);
});

t.test('onWaited learns how long each waiting caller waited, and only those', async (t) => {
  const h = harness(2);
  const waited: number[] = [];
  const observe = (ms: number) => waited.push(ms);
  const stages = Array.from({ length: 5 }, async () => {
    const wait = h.slicer.turn(observe);
    if (wait) await wait;
    h.work(1);
  });
  await Promise.all(stages);
  h.stop();
  // Two ran at once (the 2 ms stretch), three waited: for 0, 1 and 2 ms of the others' work.
  t.same(waited, [0, 1, 2]);
});

t.test('a newcomer waits behind the stages already waiting, even with budget left', async (t) => {
  const h = harness(2);
  const order: string[] = [];
  const first = Array.from({ length: 4 }, (_, i) => stage(h.slicer, h, 1).then(() => order.push(`early-${i}`)));
  // The stretch is spent: a fresh stage queues behind the four.
  await new Promise((resolve) => setImmediate(resolve));
  const late = stage(h.slicer, h, 0).then(() => order.push('late'));
  await Promise.all([...first, late]);
  h.stop();
  t.equal(order.at(-1), 'late');
});

t.test('waiters move even when every turn is over budget before they get to run', async (t) => {
  const h = harness(2);
  // Other work (not asking for turns) spends 5 ms in every turn: the slicer still wakes one waiter
  // every other turn instead of waiting for a quiet turn that never comes.
  let busy = true;
  const hog = () => {
    h.work(5);
    if (busy) setImmediate(hog);
  };
  setImmediate(hog);
  const done = await Promise.all(Array.from({ length: 5 }, () => stage(h.slicer, h, 1)));
  busy = false;
  h.stop();
  t.equal(done.length, 5, 'all five ran');
});

t.test('after a quiet spell a new stretch starts with the full budget', async (t) => {
  const h = harness(2);
  await Promise.all(Array.from({ length: 6 }, () => stage(h.slicer, h, 1)));
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
  h.work(100);
  t.equal(h.slicer.turn(), undefined);
  h.stop();
});

t.test('with the real clock, a timer set during a burst fires before the burst is over', async (t) => {
  const slicer = createTurnSlicer({ sliceMs: 2 });
  const spin = (ms: number) => {
    const until = performance.now() + ms;
    while (performance.now() < until);
  };
  let finished = 0;
  let finishedWhenTimerFired = -1;
  setTimeout(() => (finishedWhenTimerFired = finished), 0);
  await Promise.all(
    Array.from({ length: 30 }, async () => {
      const wait = slicer.turn();
      if (wait) await wait;
      spin(1);
      finished++;
    }),
  );
  t.equal(finished, 30);
  t.ok(finishedWhenTimerFired >= 0 && finishedWhenTimerFired < 30, `the timer ran between stages (after ${finishedWhenTimerFired} of 30)`);
});
