import t from 'tap';
import { found, ruleFinds } from '../test-util.js';
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

t.test('the rule alone scores a bare number by issuer digit', async (t) => {
  t.same(ruleFinds(creditCardRule, '7111111111111114'), [], 'first digit 7: no card issuer');
  t.same(ruleFinds(creditCardRule, 'card 7111111111111114'), ['7111111111111114'], 'a card word makes it one');
});

t.test('mask: all but the last four digits, groups kept (the spec)', async (t) => {
  t.equal(creditCardRule.mask('4111 1111 1111 1111'), '**** **** **** 1111');
  t.equal(creditCardRule.mask('5555-5555-5555-4444'), '****-****-****-4444');
  t.equal(creditCardRule.mask('4012888888881881'), '************1881');
});
