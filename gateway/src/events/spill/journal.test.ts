import t, { type Test } from 'tap';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openJournal } from './journal.js';
import { SpillLockedError } from './lock.js';
import { frameRecord, SEGMENT_MAGIC } from './records.js';

function tempDir(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'journal-test-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const record = (i: number, pad = 0) => Buffer.from(JSON.stringify({ i, pad: 'x'.repeat(pad) }));
const numbers = (records: Buffer[]) => records.map((r) => (JSON.parse(r.toString()) as { i: number }).i);
const segments = (dir: string) => readdirSync(dir).filter((n) => n.endsWith('.seg')).sort();

function logs() {
  const lines: Array<{ level: string; obj: Record<string, unknown>; msg: string }> = [];
  const at = (level: string) => (obj: object, msg: string) => void lines.push({ level, obj: obj as Record<string, unknown>, msg });
  return { logger: { warn: at('warn'), error: at('error'), info: at('info') }, lines };
}

t.test('records come back in order across segments; delivered segments are deleted', async (t) => {
  const dir = tempDir(t);
  const journal = openJournal({ dir, maxBytes: 10 * 1024 * 1024, segmentBytes: 64 * 1024 });
  t.teardown(() => journal.close());
  for (let i = 0; i < 1000; i += 100) t.equal(journal.append(Array.from({ length: 100 }, (_, k) => record(i + k, 200))), 100);
  t.ok(segments(dir).length >= 4, `several segments (${segments(dir).length})`);
  t.equal(journal.stats.bytes, segments(dir).reduce((sum, n) => sum + statSync(join(dir, n)).size, 0), 'bytes counts the files');

  const first = journal.read(300);
  t.same(numbers(first), Array.from({ length: 300 }, (_, i) => i));
  journal.rewind();
  t.same(numbers(journal.read(300)), numbers(first), 'rewind reads the same records again');
  const before = segments(dir).length;
  journal.commit();
  t.ok(segments(dir).length < before, 'segments read to their end are deleted on commit');
  t.equal(segments(dir)[0] !== undefined && journal.drained, false);

  const rest: Buffer[] = [];
  for (let batch = journal.read(64); batch.length > 0; batch = journal.read(64)) rest.push(...batch);
  t.same(numbers(rest), Array.from({ length: 700 }, (_, i) => 300 + i), 'the rest, in order, nothing twice');
  t.equal(journal.readable, false);
  t.equal(journal.drained, false, 'read is not delivered');
  journal.commit();
  t.equal(journal.drained, true);
  t.same(segments(dir), [], 'a drained journal keeps no file');
  t.equal(journal.stats.bytes, 0);

  journal.append([record(5000)]);
  t.same(numbers(journal.read(10)), [5000], 'appends after draining start a new segment');
});

t.test('a journal reopened after a stop is read again from its oldest undelivered segment', async (t) => {
  const dir = tempDir(t);
  const first = openJournal({ dir, maxBytes: 1024 * 1024 });
  first.append([record(1), record(2), record(3)]);
  t.same(numbers(first.read(2)), [1, 2]);
  first.close();
  const second = openJournal({ dir, maxBytes: 1024 * 1024 });
  t.teardown(() => second.close());
  t.same(numbers(second.read(10)), [1, 2, 3], 'uncommitted reads are delivered again (at-least-once)');
  second.append([record(4)]);
  t.same(numbers(second.read(10)), [4], 'appends continue the same journal');
});

t.test('a torn last record (cut short, or a bad checksum) is detected and skipped; appends continue after the last good one', async (t) => {
  for (const damage of ['cut short', 'checksum'] as const) {
    const dir = tempDir(t);
    const journal = openJournal({ dir, maxBytes: 1024 * 1024 });
    journal.append([record(1), record(2)]);
    journal.close();
    const path = join(dir, segments(dir)[0]!);
    const intact = statSync(path).size;
    const frame = frameRecord(record(3, 100));
    if (damage === 'cut short') appendFileSync(path, frame.subarray(0, frame.length - 40));
    else {
      frame[frame.length - 1]! ^= 0xff; // the payload's last byte changed after the checksum was taken
      appendFileSync(path, frame);
    }
    const { logger, lines } = logs();
    const reopened = openJournal({ dir, maxBytes: 1024 * 1024, logger });
    t.equal(reopened.stats.torn, 1, `${damage}: counted`);
    t.match(lines, [{ level: 'warn', msg: /torn record/, obj: { offset: intact } }], `${damage}: logged with where`);
    t.equal(statSync(path).size, intact, `${damage}: cut back to the last intact record`);
    reopened.append([record(4)]);
    t.same(numbers(reopened.read(10)), [1, 2, 4], `${damage}: the torn record is skipped, later appends are readable`);
    reopened.close();
  }
});

t.test('a segment file without its header (a crash while creating it) is discarded', async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, '0000000000000001.seg'), SEGMENT_MAGIC.subarray(0, 3));
  const journal = openJournal({ dir, maxBytes: 1024 * 1024 });
  t.teardown(() => journal.close());
  t.equal(journal.stats.torn, 1);
  t.equal(journal.drained, true);
  journal.append([record(7)]);
  t.same(numbers(journal.read(1)), [7]);
});

t.test('damage inside a closed segment skips the rest of that segment only', async (t) => {
  const dir = tempDir(t);
  const journal = openJournal({ dir, maxBytes: 10 * 1024 * 1024, segmentBytes: 64 * 1024 });
  for (let i = 0; i < 600; i += 100) journal.append(Array.from({ length: 100 }, (_, k) => record(i + k, 200)));
  journal.close();
  const [firstSegment] = segments(dir);
  const path = join(dir, firstSegment!);
  const bytes = readFileSync(path);
  bytes[bytes.length - 10]! ^= 0xff;
  writeFileSync(path, bytes);
  const { logger, lines } = logs();
  const reopened = openJournal({ dir, maxBytes: 10 * 1024 * 1024, segmentBytes: 64 * 1024, logger });
  t.teardown(() => reopened.close());
  const got: number[] = [];
  for (let batch = reopened.read(50); batch.length > 0; batch = reopened.read(50)) got.push(...numbers(batch));
  t.equal(reopened.stats.torn, 1);
  t.match(lines, [{ level: 'error', msg: /unreadable records skipped/ }]);
  t.equal(got.at(-1), 599, 'later segments are read');
  t.equal(got.length, 599, 'only the damaged record is lost (it was the last of its segment)');
  t.same(got, [...got].sort((a, b) => a - b), 'in order');
});

t.test('a full journal refuses appends beyond maxBytes; space comes back when segments are delivered', async (t) => {
  const dir = tempDir(t);
  const maxBytes = 256 * 1024;
  const journal = openJournal({ dir, maxBytes, segmentBytes: 64 * 1024 });
  t.teardown(() => journal.close());
  let accepted = 0;
  for (let i = 0; i < 100; i++) accepted += journal.append(Array.from({ length: 10 }, (_, k) => record(i * 10 + k, 500)));
  t.ok(accepted > 300 && accepted < 1000, `part accepted (${accepted})`);
  t.ok(journal.stats.bytes <= maxBytes, `never beyond maxBytes (${journal.stats.bytes})`);
  t.equal(journal.append([record(-1, 500)]), 0, 'full');
  journal.read(200);
  journal.commit();
  t.ok(journal.append([record(-2, 500)]) === 1, 'after delivering a segment there is room again');
});

t.test('one process per directory', async (t) => {
  const dir = tempDir(t);
  const journal = openJournal({ dir, maxBytes: 1024 * 1024 });
  t.throws(() => openJournal({ dir, maxBytes: 1024 * 1024 }), SpillLockedError, 'a second holder in the same process is refused');
  journal.close();
  const again = openJournal({ dir, maxBytes: 1024 * 1024 });
  again.close();
  // A lock left by a process that is gone is taken over.
  writeFileSync(join(dir, 'LOCK'), JSON.stringify({ pid: 2 ** 22 + 12345, host: (await import('node:os')).hostname(), at: Date.now() }));
  const taken = openJournal({ dir, maxBytes: 1024 * 1024 });
  taken.close();
  t.pass('stale lock taken over');
});
