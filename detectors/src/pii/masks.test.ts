import t from 'tap';
import { PII_TYPES } from '@palisade/core';
import { detectPii } from './detect.js';
import { applyPiiAction, maskPiiValue, PII_PLACEHOLDERS } from './masks.js';

const TEXT = 'Пишите на ivan.petrov@example.com или звоните +7 (916) 123-45-67, карта 4111 1111 1111 1111.';
const entities = detectPii(TEXT);

t.test('mask mode: placeholders', async (t) => {
  t.equal(applyPiiAction(TEXT, entities, 'mask'), 'Пишите на [EMAIL] или звоните [PHONE], карта [CREDIT_CARD].');
  for (const type of PII_TYPES) t.match(PII_PLACEHOLDERS[type], /^\[[A-Z_]+\]$/, type);
});

t.test('redact mode: removal without replacement', async (t) => {
  t.equal(applyPiiAction(TEXT, entities, 'redact'), 'Пишите на  или звоните , карта .');
});

t.test('partial mode: the spec masks of each type', async (t) => {
  t.equal(applyPiiAction(TEXT, entities, 'partial'), 'Пишите на i***@example.com или звоните +* (***) ***-**-67, карта **** **** **** 1111.');
  t.equal(maskPiiValue('INN', '7707083893'), '**********');
  t.equal(maskPiiValue('DATABASE_URL', 'postgres://app:s3cret@db/app'), 'postgres://***:***@db/app');
});

t.test('trusted entities stay; overlaps keep the first; spans outside the text throw', async (t) => {
  const trusted = entities.map((e) => (e.type === 'EMAIL' ? { ...e, trusted: true } : e));
  t.match(applyPiiAction(TEXT, trusted, 'mask'), /ivan\.petrov@example\.com или звоните \[PHONE\]/);
  t.equal(applyPiiAction('abcdef', [{ type: 'INN', start: 1, end: 4 }, { type: 'EMAIL', start: 2, end: 5 }], 'mask'), 'a[INN]ef');
  t.equal(applyPiiAction('abc', [], 'mask'), 'abc');
  t.throws(() => applyPiiAction('abc', [{ type: 'INN', start: 1, end: 9 }], 'mask'), RangeError);
  t.throws(() => applyPiiAction('abc', [{ type: 'INN', start: -1, end: 2 }], 'redact'), RangeError);
});
