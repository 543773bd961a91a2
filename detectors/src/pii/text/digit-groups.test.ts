import t from 'tap';
import { Gap, indexDigitGroups } from './digit-groups.js';

const groups = (text: string) => {
  const index = indexDigitGroups(text);
  return Array.from({ length: index.count }, (_, g) => text.slice(index.starts[g]!, index.ends[g]!));
};

t.test('groups are maximal digit runs', async (t) => {
  t.same(groups('ИНН7707083893, тел. +7 (916) 123-45-67'), ['7707083893', '7', '916', '123', '45', '67']);
  t.same(groups('no digits'), []);
  t.same(groups('2024'), ['2024']);
});

t.test('gaps say how neighbouring groups are joined', async (t) => {
  const gapsOf = (text: string) => [...indexDigitGroups(text).gaps];
  t.same(gapsOf('4111 1111\u00a01111-1111'), [Gap.Space, Gap.Space, Gap.Dash]);
  t.same(gapsOf('+7 (916) 123-45-67'), [Gap.Phone, Gap.Phone, Gap.Dash, Gap.Dash]);
  t.same(gapsOf('192.168.1.1'), [Gap.Dot, Gap.Dot, Gap.Dot]);
  t.same(gapsOf('8 - 800'), [Gap.Phone]);
  t.same(gapsOf('12, 34'), [Gap.Other], 'a comma ends a number');
  t.same(gapsOf('12\n34'), [Gap.Other], 'a line break ends a number');
  t.same(gapsOf('12  34'), [Gap.Other], 'two spaces end a number');
  t.same(gapsOf('12 abc 34'), [Gap.Other]);
});

t.test('many groups: every one indexed, in order', async (t) => {
  const text = Array.from({ length: 5_000 }, (_, i) => String(i)).join(' ');
  const index = indexDigitGroups(text);
  t.equal(index.count, 5_000);
  t.equal(text.slice(index.starts[4_999]!, index.ends[4_999]!), '4999');
  t.ok(index.gaps.every((gap) => gap === Gap.Space));
});

t.test('gaps of every length between groups (read by hand, then found by the regex scan): the same groups as /[0-9]+/g', async (t) => {
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  for (let n = 0; n < 2_000; n++) {
    let text = '';
    while (text.length < 200) {
      const gap = Math.floor(random() * 40);
      text += 'x٣ é'.repeat(10).slice(0, gap) + String(Math.floor(random() * 1e6)).slice(0, 1 + Math.floor(random() * 6));
    }
    if (random() < 0.5) text += 'tail without digits';
    t.same(groups(text), text.match(/[0-9]+/g) ?? [], text);
    if (t.passing() === false) break;
  }
});
