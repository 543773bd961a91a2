import t from 'tap';
import { codeUnitsOf, stringOfCodeUnits, withoutCodeUnits } from './code-units.js';
import { int32View, newInt32List, pushInt32 } from './int32-list.js';

t.test('code units round-trip, lone surrogates and one-byte text included', async (t) => {
  for (const text of ['', 'plain ascii', 'é and я', 'astral 𝐚 and a lone \ud800 half']) {
    t.equal(stringOfCodeUnits(codeUnitsOf(text), text.length), text, JSON.stringify(text));
  }
  t.equal(stringOfCodeUnits(codeUnitsOf('abc'), 2, Buffer.alloc(8)), 'ab', 'the first `length` units, through a lent buffer');
});

t.test('withoutCodeUnits drops the marked code units and returns the text itself when none is there', async (t) => {
  const drop = new Uint8Array(0x10000);
  drop[0x200b] = 1;
  drop[0xfeff] = 1;
  t.equal(withoutCodeUnits('i\u200bg\u200bn\u200bo\u200br\u200be', drop), 'ignore');
  t.equal(withoutCodeUnits('\ufeffпривет\u200b', drop), 'привет');
  t.equal(withoutCodeUnits('\u200b\u200b', drop), '');
  const plain = 'nothing to drop';
  t.equal(withoutCodeUnits(plain, drop), plain);
  const long = 'a\u200b'.repeat(300_000);
  t.equal(withoutCodeUnits(long, drop), 'a'.repeat(300_000), 'a long text of matches');
});

t.test('an Int32List grows past its first allocation and views what was pushed', async (t) => {
  const list = newInt32List();
  for (let i = 0; i < 100; i++) pushInt32(list, i * 3);
  t.equal(list.size, 100);
  t.same(Array.from(int32View(list).subarray(97)), [291, 294, 297]);
});
