import t from 'tap';
import { Ctx, contextBefore, verdict, wordFlags } from './keywords.js';

const before = (text: string, marker: string) => contextBefore(text, text.indexOf(marker));

t.test('words name kinds of numbers by stem, short ones only whole', async (t) => {
  t.equal(wordFlags('телефон') & Ctx.PHONE_NUMBER, Ctx.PHONE_NUMBER);
  t.equal(wordFlags('инн'), Ctx.INN);
  t.equal(wordFlags('инновации'), 0, '"инн" only as a whole word');
  t.equal(wordFlags('карты'), Ctx.CREDIT_CARD);
  t.equal(wordFlags('заказа'), Ctx.NEGATIVE);
  t.equal(wordFlags('id'), Ctx.NEGATIVE);
  t.equal(wordFlags('idea'), 0);
});

t.test('the words just before a number, up to another number', async (t) => {
  t.equal(before('ИНН 7707083893', '77') & Ctx.INN, Ctx.INN);
  t.equal(before('ИНН7707083893', '77') & Ctx.INN, Ctx.INN, 'glued label');
  t.equal(before('{"phoneNumber": "9161234567"}', '91') & Ctx.PHONE_NUMBER, Ctx.PHONE_NUMBER, 'camelCase key');
  const phone = before('ИНН 7707083893, тел. 9161234567', '916');
  t.equal(phone & Ctx.INN, 0, 'the INN before the phone is not its context');
  t.equal(phone & Ctx.PHONE_NUMBER, Ctx.PHONE_NUMBER);
  t.equal(before('один два три четыре пять шесть ИНН семь восемь девять десять двадцать 7707083893', '77') & Ctx.INN, 0, 'at most five words back');
});

t.test('verdict: own kind first, then another kind, then an unrelated number', async (t) => {
  t.same(verdict(Ctx.INN | Ctx.NEGATIVE, 'INN'), { own: true, other: false, negative: false }, '"ИНН/КПП"');
  t.same(verdict(Ctx.PHONE_NUMBER, 'INN'), { own: false, other: true, negative: false });
  t.same(verdict(Ctx.NEGATIVE, 'INN'), { own: false, other: false, negative: true });
  t.same(verdict(0, 'INN'), { own: false, other: false, negative: false });
});
