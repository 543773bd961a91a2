import t from 'tap';
import { found, ruleFinds } from '../../testing/pii.js';
import { creditCardRule } from './credit-card.js';

const cards = (text: string) => found(text, 'CREDIT_CARD');

t.test('16 digits with Luhn, together or in groups of four', async (t) => {
  t.same(cards('Карта 4111 1111 1111 1111 до 12/27'), ['4111 1111 1111 1111']);
  t.same(cards('card: 5555-5555-5555-4444.'), ['5555-5555-5555-4444']);
  t.same(cards('pan=4012888888881881&exp=1226'), ['4012888888881881']);
  t.same(cards('Мир 2200\u00a00000\u00a00000\u00a00004'), ['2200\u00a00000\u00a00000\u00a00004'], 'no-break spaces');
  t.same(cards('{"card":"6011111111111117"}'), ['6011111111111117'], 'inside JSON');
  t.same(cards('оплата картой4111111111111111'), ['4111111111111111'], 'glued to a word');
  t.same(cards('Amex 3782 822463 10005 and 378282246310005'), ['3782 822463 10005', '378282246310005']);
});

t.test('numbers failing Luhn or not shaped like a card are not cards', async (t) => {
  t.same(cards('Карта 4111 1111 1111 1112'), [], 'Luhn fails');
  t.same(cards('0000 0000 0000 0000'), [], 'one repeated digit passes Luhn but is a placeholder');
  t.same(cards('4111 1111 1111 1111 1111'), [], 'five groups: an account, not a card');
  t.same(cards('4111 1111-1111 1111'), [], 'mixed separators');
  t.same(cards('Заказ № 4111111111111111'), [], 'an order number');
  t.same(cards('ts=1718035200123456'), [], 'bare 16 digits with a first digit no issuer uses');
  t.same(cards('id 3f1a4111111111111111b2'), [], 'inside a hex token');
  t.same(cards('4111111111111111.5'), [], 'a decimal');
  t.same(cards('4111 1111 1111 111'), [], '15 digits that are no Amex');
});

t.test('every PAN length from 13 to 19 by issuer range and Luhn', async (t) => {
  t.same(cards('Amex 3782 822463 10005'), ['3782 822463 10005'], 'AmEx 15, 4-6-5');
  t.same(cards('Diners Club 3056 930902 5904'), ['3056 930902 5904'], 'Diners 14, 4-6-4');
  t.same(cards('Diners 30569309025904'), ['30569309025904'], 'Diners 14 in one run');
  t.same(cards('Visa 4000000000006'), ['4000000000006'], 'Visa 13');
  t.same(cards('Visa 4111 1111 1111 1111 110'), ['4111 1111 1111 1111 110'], 'Visa 19, 4-4-4-4-3');
  t.same(cards('UnionPay 6212345678901234569 expires 08/29'), ['6212345678901234569'], 'UnionPay 19');
  t.same(cards('银联 6212 3456 7890 1234 569'), ['6212 3456 7890 1234 569'], 'UnionPay 19 in groups');
  t.same(cards('Mastercard 2221 0000 0000 0009'), ['2221 0000 0000 0009'], 'Mastercard 2-series');
  t.same(cards('card 810000000000000002'), ['810000000000000002'], 'UnionPay 81, 18 digits, named');
});

t.test('long numbers no issuer issues at that length are not cards', async (t) => {
  t.same(cards('ref 7000000000000000004'), [], '19 digits, first digit 7');
  t.same(cards('1700000000003'), [], 'a 13-digit millisecond timestamp');
  t.same(cards('5555 5555 5555 4444 1234'), [], 'a fifth group of four');
  t.same(cards('4111 1111 1111 1111 110 1234'), [], 'a further group after 19 digits');
});

t.test('the rule alone scores a bare number by issuer digit', async (t) => {
  t.same(ruleFinds(creditCardRule, '7111111111111114'), [], 'first digit 7: no card issuer');
  t.same(ruleFinds(creditCardRule, 'card 7111111111111114'), ['7111111111111114'], 'a card word makes it one');
});

t.test('mask: all but the last four digits, groups kept (the spec)', async (t) => {
  t.equal(creditCardRule.mask('4111 1111 1111 1111'), '**** **** **** 1111');
  t.equal(creditCardRule.mask('5555-5555-5555-4444'), '****-****-****-4444');
  t.equal(creditCardRule.mask('4012888888881881'), '************1881');
  t.equal(creditCardRule.mask('3782 822463 10005'), '**** ****** *0005', 'AmEx 15');
  t.equal(creditCardRule.mask('30569309025904'), '**********5904', 'Diners 14');
  t.equal(creditCardRule.mask('4111 1111 1111 1111 110'), '**** **** **** ***1 110', 'Visa 19');
});
