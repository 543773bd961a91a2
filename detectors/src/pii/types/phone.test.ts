import t from 'tap';
import { found, ruleFinds } from '../../testing/pii.js';
import { phoneRule, regionsFor } from './phone.js';

const phones = (text: string, language = 'auto') => found(text, 'PHONE_NUMBER', { language });

t.test('Russian numbers with +7 or 8, brackets, spaces and dashes', async (t) => {
  for (const phone of [
    '+7 (916) 123-45-67',
    '+7 916 123-45-67',
    '+7 916 123 45 67',
    '+79161234567',
    '+7(916)123-45-67',
    '8 (916) 123-45-67',
    '8-916-123-45-67',
    '89161234567',
    '8 800 555 35 35',
    '8 (495) 123-45-67',
    '8(916)1234567',
    '7 916 123 45 67',
  ]) {
    t.same(phones(`Звоните: ${phone}.`, 'ru'), [phone], phone);
  }
  t.same(phones('тел.89161234567, e-mail нет', 'ru'), ['89161234567'], 'glued to the label');
  t.same(phones('тел+79161234567'), ['+79161234567']);
});

t.test('international numbers', async (t) => {
  for (const phone of ['+1 (415) 555-2671', '+1-415-555-2671', '+44 20 7946 0958', '+49 30 1234567', '+33 1 23 45 67 89', '+971 50 123 4567', '+380 44 123 4567', '+14155552671']) {
    t.same(phones(`call ${phone} today`, 'en'), [phone], phone);
  }
});

t.test('international notation as people write it: trunk "(0)", exit prefixes, the code glued to the number', async (t) => {
  for (const phone of ['+41 (0)44 668 18 00', '+33 (0)1 42 68 53 00', '+49 (0)30 1234567', '+447700 900123', '00 41 44 668 18 00', '0041 44 668 18 00', '0041 (0)44 668 18 00', '011 44 20 7946 0958', '001 415 555 2671', '00 1 415 555 2671']) {
    t.same(phones(`Reach us on ${phone} during office hours`, 'en'), [phone], phone);
  }
  t.equal(phoneRule.mask('+41 (0)44 668 18 00'), '+** (*)** *** ** 00');
  t.same(phones('счёт 00123456789012', 'ru'), [], 'an account number starting 00 is no valid international number');
  t.same(phones('+41 (0) 12', 'en'), [], 'a trunk zero with too few digits after it');
});

t.test('national numbers of the language, by their grouping', async (t) => {
  t.same(phones('Call me at (415) 555-2671 or 415-555-2671', 'en'), ['(415) 555-2671', '415-555-2671']);
  t.same(phones('Мобильный (916) 123-45-67', 'ru'), ['(916) 123-45-67']);
  t.same(phones('phone: 4155552671', 'en'), ['4155552671'], 'one run of digits needs a phone word');
  t.same(phones('4155552671', 'en'), [], 'without it, ten digits are just a number');
  t.same(phones('Call (555) 123-4567 or 555-123-4567x890', 'en'), ['(555) 123-4567', '555-123-4567x890'], 'the layout of a US number, even in the unassigned 555 range');
  t.same(phones('Office: (212) 555-0143x12', 'en'), ['(212) 555-0143x12'], 'an extension belongs to the number');
});

t.test('numbers written as phones but outside the numbering plan still count with + or the trunk prefix', async (t) => {
  t.same(phones('Телефон: +7 (123) 456-78-90'), ['+7 (123) 456-78-90']);
  t.same(phones('8 (123) 456-78-90'), ['8 (123) 456-78-90']);
  t.same(phones('+7 (000) 000-00-00'), [], 'all zeros');
});

t.test('dates, IPs, versions, SNILS-shaped and long chains are not phones', async (t) => {
  for (const text of [
    '2024-01-15 10:30',
    '15.01.2024',
    'ip 192.168.100.200',
    'version 1.24.3',
    'СНИЛС 896-884-218 04',
    '+7 999 999 99 99 99 99',
    'order 1234567890',
    'ИНН 7707083893',
    'ISBN 978-5-17-118366-3',
    'id 550e8400-e29b-41d4-a716-446655440000',
    '123-45-67',
    'timestamp 1718035200',
    '2024 01 15 10 30',
  ]) {
    t.same(phones(text, 'en'), [], text);
  }
});

t.test('two numbers in a row are two numbers', async (t) => {
  t.same(phones('+7 916 123-45-67, +7 903 765-43-21'), ['+7 916 123-45-67', '+7 903 765-43-21']);
  t.same(phones('+7 916 123-45-67 8 800 555 35 35', 'ru'), ['+7 916 123-45-67', '8 800 555 35 35']);
});

t.test('regions by language', async (t) => {
  t.same(regionsFor('ru'), ['RU', 'US']);
  t.same(regionsFor('en'), ['US', 'RU']);
  t.same(regionsFor('de'), ['DE', 'RU', 'US']);
  t.same(regionsFor('auto'), ['RU', 'US']);
  t.same(ruleFinds(phoneRule, 'Tel. 030 1234567', 'de'), ['030 1234567'], 'a German national number in German text');
});

t.test('mask: all but the last two digits (the spec)', async (t) => {
  t.equal(phoneRule.mask('+7 (916) 123-45-67'), '+* (***) ***-**-67');
  t.equal(phoneRule.mask('89161234567'), '*********67');
});
