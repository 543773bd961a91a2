// The detectors of one stage under one deadline: one signal for all of them, a timeout for the one that
// hangs while the others answer, each outcome's latency its own, and a failed stage aborting the calls
// it leaves behind.
import t from 'tap';
import { PalisadeError } from '@palisade/core';
import { runDetector, startDetectorDeadline, withDetectorDeadline } from './run-detector.js';

const after = <R>(ms: number, value: R, signal?: AbortSignal): Promise<R> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(value), ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    });
  });

t.test('detectors sharing a deadline: one signal, the hanging one times out, the others answer', async (t) => {
  const signals: AbortSignal[] = [];
  const outcomes = await withDetectorDeadline(80, (deadline) =>
    Promise.all([
      runDetector((signal) => (signals.push(signal), after(5, 'fast')), deadline),
      runDetector((signal) => (signals.push(signal), new Promise<string>(() => {})), deadline),
      runDetector((signal) => (signals.push(signal), after(10_000, 'slow', signal)), deadline),
      runDetector((signal) => (signals.push(signal), Promise.reject(new PalisadeError('SERVICE_UNAVAILABLE', { message: 'no GPU' }))), deadline),
    ]),
  );
  t.equal(new Set(signals).size, 1, 'every detector of the stage got the same signal');
  t.ok(signals[0]!.aborted, 'aborted when the time was up');
  t.match(outcomes[0], { status: 'ok', result: 'fast' });
  t.ok(outcomes[0].status === 'ok' && outcomes[0].latency_ms < 60, 'the fast one took its own time, not the deadline');
  t.match(outcomes[1], { status: 'timeout' });
  t.match(outcomes[2], { status: 'timeout' });
  t.ok(outcomes[1].status === 'timeout' && outcomes[1].latency_ms >= 70, 'the hanging one waited out the deadline');
  t.match(outcomes[3], { status: 'unavailable', error: 'no GPU' });
});

t.test('a stage that settles in time stops its timer without aborting anything', async (t) => {
  let seen: AbortSignal | undefined;
  const started = performance.now();
  const [outcome] = await withDetectorDeadline(60_000, (deadline) => Promise.all([runDetector((signal) => ((seen = signal), after(1, 42)), deadline)]));
  t.match(outcome, { status: 'ok', result: 42 });
  t.notOk(seen!.aborted);
  t.ok(performance.now() - started < 5_000, 'the 60 s timer did not hold the stage');
});

t.test('a stage that throws (a size refusal) aborts the calls still running, and the error goes on', async (t) => {
  const refusal = new PalisadeError('PAYLOAD_TOO_LARGE', { message: 'too big' });
  let slowSignal: AbortSignal | undefined;
  await t.rejects(
    withDetectorDeadline(60_000, (deadline) =>
      Promise.all([
        runDetector(() => Promise.reject(refusal), deadline, { rethrow: (e) => e === refusal }),
        runDetector((signal) => ((slowSignal = signal), after(60_000, 'never', signal)), deadline),
      ]),
    ),
    refusal,
  );
  t.ok(slowSignal?.aborted, 'the other detector call was aborted');
});

t.test('a detector alone under a deadline of its own (the threat model after a translation)', async (t) => {
  const outcome = await withDetectorDeadline(30, (own) => runDetector((signal) => after(10_000, 'late', signal), own));
  t.match(outcome, { status: 'timeout' });
  const deadline = startDetectorDeadline(30);
  deadline.end();
  const ended = await runDetector((signal) => after(60, 'in time after all', signal), deadline);
  t.match(ended, { status: 'ok', result: 'in time after all' }, 'an ended deadline never fires');
});
