import t from 'tap';
import { createPiiTrustMatcher } from './trusted.js';

const TEXT = 'Пишите на support@acme.com, ООО Ромашка ИНН 7707083893, тел. +7 916 123-45-67';
const entity = (type: 'EMAIL' | 'INN' | 'PHONE_NUMBER', value: string) => {
  const start = TEXT.indexOf(value);
  return { type, start, end: start + value.length, value };
};
const email = entity('EMAIL', 'support@acme.com');
const inn = entity('INN', '7707083893');
const phone = entity('PHONE_NUMBER', '+7 916 123-45-67');

t.test('a value mark trusts every entity its occurrences overlap, case-insensitively', async (t) => {
  const m = createPiiTrustMatcher(TEXT, ['SUPPORT@ACME.COM']);
  t.ok(m.isTrusted(email));
  t.notOk(m.isTrusted(inn));
  t.ok(createPiiTrustMatcher(TEXT, ['@acme.com']).isTrusted(email), 'a domain trusts its addresses');
  t.ok(createPiiTrustMatcher(TEXT, ['ИНН 7707083893']).isTrusted(inn), 'a phrase around the number');
});

t.test('a span mark trusts the entities it overlaps', async (t) => {
  const m = createPiiTrustMatcher(TEXT, [{ start: TEXT.indexOf('ООО'), end: TEXT.indexOf(',', TEXT.indexOf('ООО')) }]);
  t.ok(m.isTrusted(inn));
  t.notOk(m.isTrusted(email));
  t.notOk(m.isTrusted(phone));
});

t.test('numbers match by digits; a mark may be limited to one type', async (t) => {
  t.ok(createPiiTrustMatcher(TEXT, ['79161234567']).isTrusted(phone));
  t.notOk(createPiiTrustMatcher(TEXT, [{ value: '79161234567', type: 'INN' }]).isTrusted(phone));
  t.ok(createPiiTrustMatcher(TEXT, [{ value: '79161234567', type: 'PHONE_NUMBER' }]).isTrusted(phone));
  t.notOk(createPiiTrustMatcher(TEXT, []).isTrusted(phone));
  t.notOk(createPiiTrustMatcher(TEXT, undefined).isTrusted(phone));
});
