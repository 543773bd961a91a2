import t from 'tap';
import { threatWindowStarts, threatWindows } from './windows.js';

t.test('window starts cover the text with overlap', async (t) => {
  t.same(threatWindowStarts(0, 100, 75), [0]);
  t.same(threatWindowStarts(100, 100, 75), [0]);
  t.same(threatWindowStarts(101, 100, 75), [0, 1]);
  t.same(threatWindowStarts(300, 100, 75), [0, 75, 150, 200]);
  const text = 'x'.repeat(5000);
  const windows = threatWindows(text, 1024, 768);
  t.ok(windows.every((w) => w.length === 1024));
  t.equal(threatWindowStarts(5000, 1024, 768).at(-1), 5000 - 1024, 'the last window ends at the end');
  t.throws(() => threatWindowStarts(10, 10, 20));
});
