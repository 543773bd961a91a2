// Property: the adversarial inputs of the bench (testing/adversarial-inputs.ts), put before and after a
// text with known entities, change nothing about those entities: each is still found, with its type
// and its offsets shifted by the prefix; nothing else is reported inside the text; no call throws.
import fc from 'fast-check';
import t from 'tap';
import { adversarialFamilies } from '../testing/index.js';
import { detectPii, type PiiDetectedEntity } from './detect.js';

const KNOWN = [
  'Клиент Иван Петров, e-mail ivan.petrov@example.com, тел. +7 (916) 123-45-67.',
  'Card 4111 1111 1111 1111 exp 12/27, Amex 3782 822463 10005, ИНН 7707083893, СНИЛС 112-233-445 95.',
  'Use key sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z and ghp_1234567890abcdefghijklmnopqrstuvwxyzAB.',
  'DATABASE_URL=postgres://app:S3cr3tPassw0rd@db.internal:5432/prod',
  'token=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  'Паспорт 45 08 123456 выдан ОВД, call +44 20 7946 0958 or write to o.brien@mail.co.uk',
];
// A paragraph break keeps the generated text from gluing onto the first or last word of the sample.
const SEPARATOR = '\n\n';
const families = adversarialFamilies();
const detect = (text: string) => detectPii(text, { direction: 'output', language: 'ru' });
const key = (e: PiiDetectedEntity, shift: number) => `${e.type}@${e.start + shift}-${e.end + shift}`;

t.test('known entities survive adversarial prefixes and suffixes', async (t) => {
  const baseline = KNOWN.map((text) => detect(text));
  for (const [i, found] of baseline.entries()) t.ok(found.length >= 1, `sample ${i} has entities to keep`);
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: KNOWN.length - 1 }),
      fc.integer({ min: 0, max: families.length - 1 }),
      fc.integer({ min: 0, max: families.length - 1 }),
      fc.integer({ min: 0, max: 3000 }),
      fc.integer({ min: 0, max: 3000 }),
      (sample, before, after, beforeSize, afterSize) => {
        const prefix = beforeSize === 0 ? '' : families[before]!.build(beforeSize) + SEPARATOR;
        const suffix = afterSize === 0 ? '' : SEPARATOR + families[after]!.build(afterSize);
        const core = KNOWN[sample]!;
        const found = detect(prefix + core + suffix);
        const shift = prefix.length;
        const inside = found.filter((e) => e.end > shift && e.start < shift + core.length).map((e) => `${e.type}@${e.start}-${e.end}`);
        const expected = baseline[sample]!.map((e) => key(e, shift));
        if (inside.join() !== expected.join()) throw new Error(`expected ${expected.join()} got ${inside.join()}`);
      },
    ),
    { numRuns: 300, seed: 18 },
  );
});
