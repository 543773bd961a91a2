import t from 'tap';
import { found } from '../../testing/pii.js';
import { snilsRule } from './snils.js';

const snils = (text: string) => found(text, 'SNILS');

t.test('11 digits with the check number, in the usual forms', async (t) => {
  t.same(snils('СНИЛС 112-233-445 95'), ['112-233-445 95']);
  t.same(snils('снилс: 112-233-445-95'), ['112-233-445-95']);
  t.same(snils('112 233 445 95'), ['112 233 445 95']);
  t.same(snils('СНИЛС11223344595'), ['11223344595'], 'glued, all together');
  t.same(snils('{"snils":"11223344595"}'), ['11223344595']);
  t.same(snils('страховой номер 112-233-445 95.'), ['112-233-445 95']);
});

t.test('failing checks and phone-shaped numbers are not SNILS', async (t) => {
  t.same(snils('СНИЛС 112-233-445 96'), [], 'check number wrong');
  t.same(snils('001-001-998 00'), [], 'no check number before 001-001-998');
  t.same(snils('1-112-233-445 95'), [], 'part of a longer dashed number');
  // 8 962 000 00 97 is a valid Russian mobile and passes the SNILS check too: a phone by default,
  // a SNILS when named so.
  t.same(snils('89620000097'), []);
  t.same(found('89620000097', 'PHONE_NUMBER'), ['89620000097']);
  t.same(snils('СНИЛС 89620000097'), ['89620000097']);
});

t.test('mask: all digits, separators kept (our choice)', async (t) => {
  t.equal(snilsRule.mask('112-233-445 95'), '***-***-*** **');
  t.equal(snilsRule.mask('11223344595'), '***********');
});
