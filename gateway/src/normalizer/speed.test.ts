import t from 'tap';
import { formatHomoglyphSpeed, homoglyphSpeedTexts, measureHomoglyphSpeed } from './speed.js';

t.test('the texts: 2 KB each, and only the plain ones come back unchanged', async (t) => {
  const texts = homoglyphSpeedTexts();
  t.same(texts.map((x) => x.name), ['english', 'russian', 'mixed-homoglyphs', 'fullwidth-ligatures']);
  for (const { text } of texts) t.ok(text.length >= 2047 && text.length <= 2048);
});

t.test('the measurement runs and prints one line per text', async (t) => {
  const report = measureHomoglyphSpeed({ iterations: 300, warmup: 50 });
  t.same(report.map((r) => r.changed), [false, false, true, true]);
  for (const r of report) {
    t.ok(r.p50Us > 0 && r.p50Us <= r.p99Us, r.name);
  }
  const text = formatHomoglyphSpeed(report);
  t.comment(text);
  t.equal(text.split('\n').length, 4);
});
