import t from 'tap';
import { CONDITION_MESSAGE_MAX_LENGTH, CONDITION_REASON_MAX_LENGTH } from '../crd/build.js';
import { fitLength, setCondition } from './conditions.js';

const at = new Date('2026-01-01T00:00:00.123Z');

t.test('messages and reasons are cut to the CRD maximum lengths', async (t) => {
  const [condition] = setCondition([], { type: 'Ready', status: 'False', reason: 'R'.repeat(2000), message: 'm'.repeat(CONDITION_MESSAGE_MAX_LENGTH + 10) }, at);
  t.equal(condition!.message.length, CONDITION_MESSAGE_MAX_LENGTH);
  t.ok(condition!.message.endsWith('…'), 'a cut message is marked');
  t.equal(condition!.reason.length, CONDITION_REASON_MAX_LENGTH);
  t.equal(condition!.lastTransitionTime, '2026-01-01T00:00:00Z');
  const [short] = setCondition([], { type: 'Ready', status: 'True', reason: 'Reconciled', message: 'fine' }, at);
  t.equal(short!.message, 'fine', 'a message within the limit is left alone');
});

t.test('the cut counts characters, not UTF-16 units, and never splits one', async (t) => {
  const faces = '😀'.repeat(10); // 20 UTF-16 units
  t.equal(fitLength(faces, 10), faces, 'ten characters fit in ten');
  const cut = fitLength(faces, 5);
  t.equal(Array.from(cut).length, 5);
  t.equal(cut, '😀😀😀😀…');
});

t.test('lastTransitionTime moves only when the status does', async (t) => {
  const first = setCondition([], { type: 'Ready', status: 'True', reason: 'A', message: 'a' }, at);
  const same = setCondition(first, { type: 'Ready', status: 'True', reason: 'B', message: 'b' }, new Date('2026-02-01T00:00:00Z'));
  t.equal(same[0]!.lastTransitionTime, '2026-01-01T00:00:00Z');
  const flipped = setCondition(first, { type: 'Ready', status: 'False', reason: 'C', message: 'c' }, new Date('2026-02-01T00:00:00Z'));
  t.equal(flipped[0]!.lastTransitionTime, '2026-02-01T00:00:00Z');
});
