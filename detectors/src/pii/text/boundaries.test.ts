import t from 'tap';
import { insideUuid, standaloneNumber } from './boundaries.js';

const check = (text: string, digits: string, options = {}) => {
  const start = text.indexOf(digits);
  return standaloneNumber(text, start, start + digits.length, options);
};

t.test('numbers glued to a word stand on their own', async (t) => {
  t.ok(check('ИНН7707083893', '7707083893'));
  t.ok(check('inn7707083893.', '7707083893'));
  t.ok(check('7707083893руб', '7707083893'));
  t.ok(check('"inn":"7707083893"', '7707083893'));
  t.ok(check('inn=7707083893\n', '7707083893'));
});

t.test('digits inside hashes, decimals, versions and UUIDs do not', async (t) => {
  t.notOk(check('3f9a7707083893c1', '7707083893'), 'inside a hex token');
  t.notOk(check('a1b7707083893', '7707083893'), 'letters glued after a digit');
  t.notOk(check('3.7707083893', '7707083893'), 'a fraction');
  t.notOk(check('7707083893.25', '7707083893'), 'an integer part');
  t.notOk(check('7707083893,50 руб', '7707083893'), 'a decimal comma');
  t.notOk(check('+7707083893', '7707083893'), 'a piece of an international number');
  t.ok(check('+7707083893', '7707083893', { allowPlus: true }));
  t.notOk(check('550e8400-e29b-41d4-a716-446655440000', '446655440000'));
  t.ok(insideUuid('id 550e8400-e29b-41d4-a716-446655440000 ok', 27, 39));
  t.notOk(insideUuid('ORD-7707083893', 4, 14));
  t.ok(check('ORD-7707083893', '7707083893'), 'a dash after a label is no UUID');
});
