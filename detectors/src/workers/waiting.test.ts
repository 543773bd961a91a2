import t from 'tap';
import { createWaitingQueue } from './waiting.js';

t.test('oldest first; a removed input is passed over; drain takes only the waiting ones', async (t) => {
  const queue = createWaitingQueue<{ id: number }>();
  for (let id = 1; id <= 5; id++) queue.push({ id });
  t.equal(queue.size, 5);
  t.equal(queue.next()?.id, 1);
  t.ok(queue.remove(2), 'a waiting input can be taken out');
  t.notOk(queue.remove(1), 'one handed out already cannot');
  t.equal(queue.next()?.id, 3, 'the removed one is skipped');
  t.equal(queue.size, 2);
  t.same(queue.drain().map((j) => j.id), [4, 5]);
  t.equal(queue.size, 0);
  t.equal(queue.next(), undefined);
});

t.test('the order holds across the array being compacted, however inputs arrive', async (t) => {
  const queue = createWaitingQueue<{ id: number }>();
  const taken: number[] = [];
  let id = 0;
  // Three in, two out: the head runs past 1,024 with inputs still behind it.
  for (let round = 0; round < 2000; round++) {
    for (let k = 0; k < 3; k++) queue.push({ id: id++ });
    if (round % 7 === 0) queue.remove(id - 1);
    for (let k = 0; k < 2; k++) taken.push(queue.next()!.id);
  }
  for (let job = queue.next(); job; job = queue.next()) taken.push(job.id);
  const expected = [...Array(id).keys()].filter((n) => !(n % 3 === 2 && ((n - 2) / 3) % 7 === 0));
  t.same(taken, expected);
});
