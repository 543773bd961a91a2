import t from 'tap';
import { found } from '../../testing/pii.js';
import { innRule } from './inn.js';

const inns = (text: string) => found(text, 'INN');

t.test('10 and 12 digits with the official check digits', async (t) => {
  t.same(inns('ИНН 7707083893'), ['7707083893']);
  t.same(inns('ИНН7707083893'), ['7707083893'], 'glued to the label');
  t.same(inns('inn:500100732259;'), ['500100732259']);
  t.same(inns('{"inn": 7736207543}'), ['7736207543'], 'a JSON number');
  t.same(inns('client:\n  inn: "500100732259"\n'), ['500100732259'], 'YAML');
  t.same(inns('2024-05-12T10:00:00Z INFO payer inn=7707083893 status=ok'), ['7707083893'], 'a log line');
  t.same(inns('ИНН/КПП 7707083893/773601001'), ['7707083893'], 'KPP after the slash is not an INN');
  t.same(inns('Реквизиты:\nИНН\n7707083893'), ['7707083893'], 'across a line break');
  t.same(inns('7707083893'), ['7707083893'], 'without a label: the checksum alone');
});

t.test('failing checksums and other numbers are not INNs', async (t) => {
  t.same(inns('ИНН 7707083894'), [], 'check digit wrong');
  t.same(inns('ИНН 500100732258'), []);
  t.same(inns('ИНН 77070838'), [], 'too short');
  t.same(inns('ИНН 77070838931'), [], '11 digits');
  t.same(inns('номер заказа 7707083893'), [], 'an order number');
  t.same(inns('тел. 7707083893'), [], 'named a phone');
  t.same(inns('0000000000'), [], 'placeholder');
  t.same(inns('id 550e8400-e29b-41d4-a716-500100732259'), [], 'inside a UUID');
  t.same(inns('total 7707083893.50'), [], 'a decimal');
});

t.test('mask: all digits (the spec)', async (t) => {
  t.equal(innRule.mask('7707083893'), '**********');
  t.equal(innRule.mask('500100732259'), '************');
});
