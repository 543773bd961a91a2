import t from 'tap';
import { PalisadeError } from '@palisade/core';
import { createPiiDetector } from './detector.js';
import { PII_MAX_TEXT_BYTES, PiiDetectResponseSchema } from './schema.js';

const detector = createPiiDetector();

t.test('in-process: the same contract as the service', async (t) => {
  t.equal(detector.kind, 'pii');
  const answer = await detector.detect({ text: 'mail ivan@example.com, tel +7 916 123-45-67', language: 'ru' });
  t.ok(PiiDetectResponseSchema.safeParse(answer).success, 'matches the response schema');
  t.equal(answer.has_pii, true);
  t.same(answer.entities.map((e) => e.type), ['EMAIL', 'PHONE_NUMBER']);
  t.same(await detector.detect({ text: 'nothing here', language: 'en' }), { has_pii: false, entities: [] });
});

t.test('types with aliases, direction and trusted marks', async (t) => {
  const phoneOnly = await detector.detect({ text: 'ivan@example.com +7 916 123-45-67', language: 'ru', types: ['phone'] });
  t.same(phoneOnly.entities.map((e) => e.type), ['PHONE_NUMBER']);
  const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
  t.same((await detector.detect({ text: jwt, language: 'en' })).entities, [], 'input: no output types');
  t.same((await detector.detect({ text: jwt, language: 'en', direction: 'output' })).entities.map((e) => e.type), ['JWT']);
  const trusted = await detector.detect({ text: 'ivan@example.com', language: 'en', trusted: ['ivan@example.com'] });
  t.equal(trusted.has_pii, false);
  t.equal(trusted.entities[0]!.trusted, true);
});

t.test('bad requests, big texts and aborted calls', async (t) => {
  await t.rejects(detector.detect({ language: 'en' } as never), { code: 'VALIDATION_ERROR', status: 400 });
  await t.rejects(detector.detect({ text: 42, language: 'en' } as never), { code: 'VALIDATION_ERROR' });
  await t.rejects(detector.detect({ text: 'x', types: ['NOT_A_TYPE'] }), { code: 'VALIDATION_ERROR' });
  const big = 'a'.repeat(PII_MAX_TEXT_BYTES + 1);
  await t.rejects(detector.detect({ text: big }), new PalisadeError('PAYLOAD_TOO_LARGE', { message: `text is over ${PII_MAX_TEXT_BYTES} bytes (1 MiB)` }));
  t.equal((await detector.detect({ text: 'a'.repeat(PII_MAX_TEXT_BYTES) })).has_pii, false, 'exactly 1 MiB is accepted');
  await t.rejects(detector.detect({ text: 'я'.repeat(PII_MAX_TEXT_BYTES / 2 + 1) }), { code: 'PAYLOAD_TOO_LARGE' }, 'counted in UTF-8 bytes');
  const controller = new AbortController();
  controller.abort();
  await t.rejects(detector.detect({ text: 'ivan@example.com' }, { signal: controller.signal }));
});
