// The contract of Streams.events: append and read in consumer groups, groups, claims of stale entries,
// trimming.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Test } from 'tap';
import type { StreamEntry } from '../../stream/types.js';
import type { StreamsContractContext } from './context.js';

/** append, read, ack, counted reads and payloads. */
export function eventReadsContract(t: Test, { open, uniq }: StreamsContractContext): void {
  t.test('events: append, read, ack', async (tt) => {
    const { events } = await open(tt);
    const s = uniq('events');
    await events.ensureGroup(s, 'writer');
    const payloads = [{ type: 'ALLOW', tenant: 't1' }, { event_type: 'PII_DETECTED', score: 0.9, pii: [{ type: 'EMAIL', start: 3 }] }, ['a', 1]];
    const ids: string[] = [];
    for (const p of payloads) ids.push(await events.append(s, p));
    tt.ok(ids.every((id) => /^\d+-\d+$/.test(id)), 'ids look like <ms>-<seq>');
    tt.equal(new Set(ids).size, 3);
    const got = await events.read(s, 'writer', 'c1', { count: 10 });
    tt.same(got, ids.map((id, i) => ({ id, payload: payloads[i] })), 'entries in order with their payloads');
    tt.equal(await events.pending(s, 'writer'), 3, 'read but not acked: pending');
    tt.same(await events.read(s, 'writer', 'c1'), [], 'nothing new');
    tt.equal(await events.ack(s, 'writer', ids), 3);
    tt.equal(await events.ack(s, 'writer', ids), 0, 'acking twice counts nothing');
    tt.equal(await events.ack(s, 'writer', []), 0);
    tt.equal(await events.pending(s, 'writer'), 0);
    await tt.rejects(events.ack(s, 'writer', ['nope']), { code: 'INVALID' });
  });

  t.test('events: count limits a read', async (tt) => {
    const { events } = await open(tt);
    const s = uniq('events');
    await events.ensureGroup(s, 'g');
    for (let i = 0; i < 5; i++) await events.append(s, { i: String(i) });
    const sizes = [];
    for (let i = 0; i < 3; i++) sizes.push((await events.read(s, 'g', 'c', { count: 2 })).length);
    tt.same(sizes, [2, 2, 1]);
  });

  t.test('events: payloads round-trip exactly', async (tt) => {
    const { events } = await open(tt);
    const s = uniq('events');
    await events.ensureGroup(s, 'g');
    const payloads = [
      { a: '1', b: 'two' },
      { a: 1 },
      { $json: 'not really' },
      {},
      'text',
      42,
      null,
      true,
      [1, 'a', { b: [null] }],
      { nested: { deep: ['x'] }, emoji: 'ünïcødé ✓', empty: '' },
    ];
    for (const p of payloads) await events.append(s, p);
    const got = await events.read(s, 'g', 'c', { count: 100 });
    tt.same(got.map((e) => e.payload), payloads);
    await tt.rejects(events.append(s, { big: 1n }), { code: 'INVALID' }, 'BigInt is not JSON');
    await tt.rejects(events.append(s, undefined), { code: 'INVALID' });
  });
}

/** Blocking reads: woken by an append, or timing out without busy-looping. */
export function eventBlockingReadsContract(t: Test, { open, uniq }: StreamsContractContext): void {
  t.test('events: a blocking read returns as soon as an entry is appended', async (tt) => {
    const { events } = await open(tt);
    const s = uniq('events');
    await events.ensureGroup(s, 'g');
    const started = Date.now();
    const reading = events.read(s, 'g', 'c', { blockMs: 3_000 });
    await sleep(40);
    const id = await events.append(s, { hello: 'world' });
    const got = await reading;
    const elapsed = Date.now() - started;
    tt.same(got, [{ id, payload: { hello: 'world' } }]);
    tt.ok(elapsed < 1_000, `returned after ${elapsed} ms`);
  });

  t.test('events: a blocking read times out empty without busy-looping', async (tt) => {
    const { events } = await open(tt);
    const s = uniq('events');
    await events.ensureGroup(s, 'g');
    const started = Date.now();
    const cpu = process.cpuUsage();
    const got = await events.read(s, 'g', 'c', { blockMs: 200 });
    const used = process.cpuUsage(cpu);
    const elapsed = Date.now() - started;
    tt.same(got, []);
    tt.ok(elapsed >= 190 && elapsed < 1_500, `waited ${elapsed} ms`);
    tt.ok((used.user + used.system) / 1_000 < 60, `CPU while blocked: ${((used.user + used.system) / 1_000).toFixed(1)} ms`);
  });
}

/** Groups: created late, unknown, dropped. */
export function eventGroupsContract(t: Test, { open, uniq }: StreamsContractContext): void {
  t.test('events: a group created after appends sees the whole history', async (tt) => {
    const { events } = await open(tt);
    const s = uniq('events');
    const ids = [await events.append(s, { n: '1' }), await events.append(s, { n: '2' })];
    await events.ensureGroup(s, 'late');
    tt.same((await events.read(s, 'late', 'c')).map((e) => e.id), ids);
    await events.ensureGroup(s, 'late'); // idempotent: does not rewind
    tt.same(await events.read(s, 'late', 'c'), [], 'ensureGroup again does not re-deliver');
    tt.equal(await events.pending(s, 'late'), 2);
    await events.ensureGroup(s, 'other');
    tt.equal((await events.read(s, 'other', 'c')).length, 2, 'every group has its own cursor');
  });

  t.test('events: an unknown group is an error', async (tt) => {
    const { events } = await open(tt);
    const s = uniq('events');
    await events.append(s, { a: 'b' });
    await tt.rejects(events.read(s, 'missing', 'c'), { code: 'NOGROUP' });
    await tt.rejects(events.read(uniq('nostream'), 'missing', 'c', { blockMs: 10 }), { code: 'NOGROUP' });
    await tt.rejects(events.pending(s, 'missing'), { code: 'NOGROUP' });
    await tt.rejects(events.claimStale(s, 'missing', 'c', 0), { code: 'NOGROUP' });
    tt.equal(await events.ack(s, 'missing', ['1-0']), 0);
  });

  t.test('events: dropGroup removes a group with its pending entries; the others keep theirs', async (tt) => {
    const { events } = await open(tt);
    const s = uniq('events');
    await events.ensureGroup(s, 'gone');
    await events.ensureGroup(s, 'kept');
    await events.append(s, { a: 'b' });
    tt.equal((await events.read(s, 'gone', 'c')).length, 1);
    tt.equal((await events.read(s, 'kept', 'c')).length, 1);
    tt.equal(await events.dropGroup(s, 'gone'), true);
    await tt.rejects(events.pending(s, 'gone'), { code: 'NOGROUP' });
    tt.equal(await events.pending(s, 'kept'), 1, 'another group is untouched');
    tt.equal(await events.dropGroup(s, 'gone'), false, 'a second drop finds nothing');
    tt.equal(await events.dropGroup(uniq('nostream'), 'gone'), false, 'nor does a drop on a missing stream');
    await events.ensureGroup(s, 'gone');
    tt.equal((await events.read(s, 'gone', 'c')).length, 1, 'a group created again starts from the beginning');
  });
}

/** claimStale and consumers sharing a group. */
export function eventClaimsContract(t: Test, { open, uniq }: StreamsContractContext): void {
  t.test('events: crash re-delivery with claimStale', async (tt) => {
    const { events } = await open(tt);
    const s = uniq('events');
    await events.ensureGroup(s, 'exporter');
    const id = await events.append(s, { event: 'e1' });
    const readByA = await events.read(s, 'exporter', 'A');
    tt.same(readByA.map((e) => e.id), [id], 'A read it, then "crashed" without ack');
    tt.same(await events.read(s, 'exporter', 'B'), [], 'B does not get it as a new entry');
    tt.same(await events.claimStale(s, 'exporter', 'B', 60), [], 'not idle long enough yet');
    await sleep(80);
    const claimed = await events.claimStale(s, 'exporter', 'B', 60);
    tt.same(claimed, [{ id, payload: { event: 'e1' } }], 'B took it over');
    tt.equal(await events.pending(s, 'exporter'), 1, 'still pending until acked');
    tt.same(await events.claimStale(s, 'exporter', 'C', 60), [], 'claiming resets the idle time');
    tt.equal(await events.ack(s, 'exporter', [id]), 1);
    tt.equal(await events.pending(s, 'exporter'), 0);
    tt.same(await events.claimStale(s, 'exporter', 'C', 0), [], 'nothing left to claim');
  });

  t.test('events: claimStale honours count and returns oldest first', async (tt) => {
    const { events } = await open(tt);
    const s = uniq('events');
    await events.ensureGroup(s, 'g');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await events.append(s, { i: String(i) }));
    await events.read(s, 'g', 'A', { count: 5 });
    const first = await events.claimStale(s, 'g', 'B', 0, 2);
    const rest = await events.claimStale(s, 'g', 'C', 0, 10);
    tt.same(first.map((e) => e.id), ids.slice(0, 2));
    tt.same(rest.map((e) => e.id), ids, 'minIdle 0 claims everything pending, B\'s too');
  });

  t.test('events: two consumers in one group share entries without duplicates', async (tt) => {
    const { events } = await open(tt);
    const s = uniq('events');
    await events.ensureGroup(s, 'g');
    for (let i = 0; i < 20; i++) await events.append(s, { i: String(i) });
    const seen: Record<string, string[]> = { A: [], B: [] };
    for (let round = 0; round < 10; round++) {
      for (const c of ['A', 'B']) {
        const got = await events.read(s, 'g', c, { count: 3 });
        seen[c]?.push(...got.map((e) => e.id));
        if (got.length > 0) await events.ack(s, 'g', got.map((e) => e.id));
      }
    }
    const all = [...(seen.A ?? []), ...(seen.B ?? [])];
    tt.equal(all.length, 20);
    tt.equal(new Set(all).size, 20, 'no entry delivered twice');
    tt.ok((seen.A?.length ?? 0) > 0 && (seen.B?.length ?? 0) > 0, 'both consumers got work');

    // The same with both consumers blocked waiting while entries trickle in.
    const s2 = uniq('events');
    await events.ensureGroup(s2, 'g');
    const delivered: { consumer: string; entry: StreamEntry }[] = [];
    const consume = async (consumer: string): Promise<void> => {
      const deadline = Date.now() + 3_000;
      while (delivered.length < 10 && Date.now() < deadline) {
        for (const entry of await events.read(s2, 'g', consumer, { count: 1, blockMs: 100 })) {
          delivered.push({ consumer, entry });
          await events.ack(s2, 'g', [entry.id]);
        }
      }
    };
    const consumers = Promise.all([consume('A'), consume('B')]);
    for (let i = 0; i < 10; i++) {
      await events.append(s2, { i: String(i) });
      await sleep(3);
    }
    await consumers;
    tt.equal(delivered.length, 10, 'every entry delivered');
    tt.equal(new Set(delivered.map((d) => d.entry.id)).size, 10, 'no duplicates between blocked consumers');
    tt.equal(await events.pending(s2, 'g'), 0);
  });
}

/** trim, trimAcked and append with maxLen. */
export function eventTrimContract(t: Test, { open, uniq }: StreamsContractContext): void {
  t.test('events: trim keeps the newest entries; trimmed pending entries are dropped on claim', async (tt) => {
    const { events } = await open(tt);
    const s = uniq('events');
    await events.ensureGroup(s, 'g');
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await events.append(s, { i: String(i) }));
    await events.read(s, 'g', 'A', { count: 10 });
    tt.equal(await events.trim(s, 4), 6);
    tt.equal(await events.trim(s, 4), 0, 'already short enough');
    tt.equal(await events.trim(uniq('missing'), 4), 0, 'missing stream');
    await events.ensureGroup(s, 'fresh');
    tt.same((await events.read(s, 'fresh', 'c', { count: 100 })).map((e) => e.id), ids.slice(6), 'the newest 4 remain');
    const claimed = await events.claimStale(s, 'g', 'B', 0);
    tt.same(claimed.map((e) => e.id), ids.slice(6), 'only entries that still exist are re-delivered');
    tt.equal(await events.pending(s, 'g'), 4, 'the trimmed ones left the pending list');
  });

  t.test('events: trimAcked removes what every group has acked, never what one still needs', async (tt) => {
    const { events } = await open(tt);
    const s = uniq('events');
    tt.equal(await events.trimAcked(uniq('missing')), 0, 'missing stream');
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await events.append(s, { i: String(i) }));
    tt.equal(await events.trimAcked(s), 0, 'no group yet: nobody has read it, nothing goes');
    await events.ensureGroup(s, 'fast');
    await events.ensureGroup(s, 'slow');
    const fast = await events.read(s, 'fast', 'f', { count: 10 });
    await events.ack(s, 'fast', fast.map((e) => e.id));
    const slow = await events.read(s, 'slow', 'w', { count: 6 });
    await events.ack(s, 'slow', slow.slice(0, 3).map((e) => e.id)); // 3 acked, 3 pending, 4 unread
    tt.equal(await events.trimAcked(s), 3, 'only what the slowest group acked');
    tt.equal(await events.pending(s, 'slow'), 3);
    const again = await events.claimStale(s, 'slow', 'w2', 0, 10);
    tt.same(again.map((e) => e.id), ids.slice(3, 6), 'the pending ones are all still there');
    await events.ack(s, 'slow', again.map((e) => e.id));
    tt.equal(await events.trimAcked(s), 3, 'once acked they go');
    const rest = await events.read(s, 'slow', 'w', { count: 10 });
    tt.same(rest.map((e) => e.id), ids.slice(6), 'the unread ones stayed');
    await events.ack(s, 'slow', rest.map((e) => e.id));
    tt.equal(await events.trimAcked(s), 4);
    tt.equal(await events.trimAcked(s), 0, 'empty');
  });

  t.test('events: append with maxLen caps the stream at about maxLen, never below', async (tt) => {
    const { events } = await open(tt);
    const s = uniq('events');
    const ids: string[] = [];
    // Redis trims whole nodes of 100 entries ("~"), so the cap shows only past a few nodes.
    for (let i = 0; i < 1000; i++) ids.push(await events.append(s, { i: String(i) }, { maxLen: 200 }));
    await events.ensureGroup(s, 'count');
    const kept = (await events.read(s, 'count', 'c', { count: 2000 })).map((e) => e.id);
    tt.ok(kept.length >= 200 && kept.length <= 400, `${kept.length} entries kept`);
    tt.same(kept, ids.slice(ids.length - kept.length), 'the newest ones, in order');
    await tt.rejects(events.append(s, { i: 'x' }, { maxLen: 0 }), { code: 'INVALID' });
  });
}
