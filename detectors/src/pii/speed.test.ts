import t from 'tap';
import { adversarialInputs, denseText, KB, measurePiiSpeed, typicalText } from './speed.js';

t.test('bench texts have the sizes asked for', async (t) => {
  t.equal(typicalText(4 * KB).length, 4 * KB);
  t.equal(denseText(4 * KB).length, 4 * KB);
  for (const input of adversarialInputs(64 * KB)) t.equal(input.text.length, 64 * KB, input.name);
});

t.test('1 MiB adversarial inputs finish within a generous bound (real figures: speed-main)', async (t) => {
  const report = measurePiiSpeed({ adversarialOnly: true, adversarialRounds: 1 });
  for (const a of report.adversarial) t.ok(a.ms < 2000, `${a.name}: ${a.ms.toFixed(1)} ms`);
});
