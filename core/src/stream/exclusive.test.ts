import t from 'tap';
import { setTimeout as sleep } from 'node:timers/promises';
import { createExclusive } from './exclusive.js';

t.test('runs never overlap, keep their order, and a failure does not stop the next', async (t) => {
  const exclusively = createExclusive();
  const log: string[] = [];
  const job = (name: string, ms: number, fail = false) => async () => {
    log.push(`${name} start`);
    await sleep(ms);
    log.push(`${name} end`);
    if (fail) throw new Error(name);
    return name;
  };
  const results = await Promise.allSettled([exclusively(job('a', 20)), exclusively(job('b', 1, true)), exclusively(job('c', 5))]);
  t.same(log, ['a start', 'a end', 'b start', 'b end', 'c start', 'c end']);
  t.same(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled']);
  t.equal((results[2] as PromiseFulfilledResult<string>).value, 'c');
});
