import t from 'tap';
import { adversarialInputs, denseText, KB, measurePiiSpeed, typicalText } from './speed.js';

t.test('bench texts have the sizes asked for', async (t) => {
  t.equal(typicalText(4 * KB).length, 4 * KB);
  t.equal(denseText(4 * KB).length, 4 * KB);
  for (const input of adversarialInputs(64 * KB)) t.equal(input.text.length, 64 * KB, input.name);
});

// Time on adversarial inputs is the bench's to judge (hack/src/bench/adversarial.ts); this checks the
// measurement runs and reports every input.
t.test('the adversarial measurement reports every input', async (t) => {
  const report = measurePiiSpeed({ adversarialOnly: true, adversarialRounds: 1, adversarialSize: 4 * KB });
  t.same(report.adversarial.map((a) => a.name), adversarialInputs(4 * KB).map((a) => a.name));
  for (const a of report.adversarial) t.equal(a.bytes, 4 * KB, a.name);
});
