import t from 'tap';
import { INPUT_PII_TYPES, PII_TYPES } from '@palisade/core';
import { detectPii, hasUntrustedPii, piiTypesFor, resolveOverlaps } from './detect.js';
import type { PiiRule } from './rule.js';

const TEXT = 'Пишите на ivan.petrov@example.com или звоните +7 (916) 123-45-67. ИНН 7707083893.';

t.test('entities carry type, UTF-16 offsets, value, score and the SANITIZE mask', async (t) => {
  const entities = detectPii(TEXT, { language: 'ru' });
  t.same(entities.map((e) => e.type), ['EMAIL', 'PHONE_NUMBER', 'INN']);
  for (const e of entities) {
    t.equal(TEXT.slice(e.start, e.end), e.value, `${e.type} offsets index the text`);
    t.ok(e.score >= 0.5 && e.score <= 1);
    t.notOk('trusted' in e);
  }
  t.equal(entities[0]!.masked, 'i***@example.com');
  t.equal(entities[1]!.masked, '+* (***) ***-**-67');
  const emoji = `😀😀 ${TEXT}`;
  t.equal(detectPii(emoji)[0]!.start, TEXT.indexOf('ivan') + 5, 'offsets count UTF-16 code units, as JavaScript strings index');
});

t.test('types filter, aliases handled by the caller, and directions', async (t) => {
  t.same(detectPii(TEXT, { types: ['EMAIL'] }).map((e) => e.type), ['EMAIL']);
  t.same(detectPii(TEXT, { types: [] }), []);
  t.same([...piiTypesFor('input')], [...INPUT_PII_TYPES]);
  t.same([...piiTypesFor('output')], [...PII_TYPES]);
  t.same([...piiTypesFor('input', ['EMAIL', 'JWT'])], ['EMAIL'], 'output-only types never apply to requests');
  const url = 'db: postgres://app:s3cret@db.example.com/app';
  t.same(detectPii(url, { direction: 'input' }), [], 'a DATABASE_URL is an output type; its password is not reported as an e-mail');
  t.same(detectPii(url, { direction: 'output' }).map((e) => e.type), ['DATABASE_URL']);
});

t.test('overlaps: the longer span wins, then the higher score, then the more specific type', async (t) => {
  const kept = resolveOverlaps(
    [
      { type: 'INN', start: 5, end: 15, score: 0.95 },
      { type: 'PHONE_NUMBER', start: 2, end: 18, score: 0.8 },
      { type: 'SNILS', start: 20, end: 31, score: 0.6 },
      { type: 'PHONE_NUMBER', start: 20, end: 31, score: 0.88 },
      { type: 'API_KEY', start: 40, end: 60, score: 0.7 },
      { type: 'GITHUB_TOKEN', start: 40, end: 60, score: 0.7 },
    ],
    80,
  );
  t.same(
    kept.map((c) => [c.type, c.start]),
    [
      ['PHONE_NUMBER', 2],
      ['PHONE_NUMBER', 20],
      ['GITHUB_TOKEN', 40],
    ],
  );
  const key = 'token: ghp_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6';
  t.same(detectPii(key).map((e) => e.type), ['GITHUB_TOKEN']);
});

t.test('trusted entities are marked and do not count as PII', async (t) => {
  const entities = detectPii(TEXT, { trusted: ['ivan.petrov@example.com'] });
  t.equal(entities.find((e) => e.type === 'EMAIL')!.trusted, true);
  t.ok(hasUntrustedPii(entities), 'the phone and the INN still count');
  const all = detectPii('support@acme.com', { trusted: [{ value: '@acme.com' }] });
  t.equal(all[0]!.trusted, true);
  t.notOk(hasUntrustedPii(all));
});

t.test('rules below the minimum score are dropped; an aborted signal stops the scan', async (t) => {
  const weak: PiiRule = { type: 'EMAIL', scan: () => [{ start: 0, end: 4, score: 0.4 }], mask: () => '*' };
  t.same(detectPii('abcd efgh', { rules: [weak] }), []);
  t.same(detectPii('abcd efgh', { rules: [weak], minScore: 0.3 }).map((e) => e.value), ['abcd']);
  const controller = new AbortController();
  controller.abort();
  t.throws(() => detectPii(TEXT, { signal: controller.signal }));
});
