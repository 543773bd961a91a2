import t from 'tap';
import { listen } from '@palisade/core';
import { buildPiiService, PII_DETECT_PATH, PII_DETECTOR_PORT } from './service.js';
import { PII_MAX_TEXT_BYTES, PiiDetectResponseSchema } from './schema.js';

async function start(options: { internalToken?: string } = {}) {
  const { app } = buildPiiService({ logLevel: 'silent', ...options });
  const base = await listen(app, { port: 0, host: '127.0.0.1' });
  return { app, url: `${base}${PII_DETECT_PATH}` };
}

interface Answer {
  has_pii: boolean;
  entities: Array<{ type: string; start: number; end: number; value: string; score: number; masked: string; trusted?: true }>;
  error?: { code: string; details?: Array<{ path: string }> };
}
const json = async (res: Response) => (await res.json()) as Answer;

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });

t.test('the spec acceptance check: e-mail and phone give has_pii with both kinds', async (t) => {
  const { app, url } = await start();
  t.teardown(() => app.close());
  t.equal(PII_DETECTOR_PORT, 8084);
  const res = await post(url, { text: 'Contact me: john.smith@example.com or +1 (415) 555-2671', language: 'en' });
  t.equal(res.status, 200);
  const body = await json(res);
  t.ok(PiiDetectResponseSchema.safeParse(body).success);
  t.equal(body.has_pii, true);
  t.same(body.entities.map((e) => e.type).sort(), ['EMAIL', 'PHONE_NUMBER']);
  t.match(body.entities[0], { type: 'EMAIL', start: 12, end: 34, value: 'john.smith@example.com', masked: 'j***@example.com' });
  const live = await fetch(url.replace(PII_DETECT_PATH, '/health/live'));
  t.equal(live.status, 200);
  await live.arrayBuffer();
});

t.test('400 for a missing or non-string text, 413 over 1 MiB', async (t) => {
  const { app, url } = await start();
  t.teardown(() => app.close());
  for (const body of [{ language: 'en' }, { text: 123 }, { text: null }, [], '{bad json']) {
    const res = await post(url, body);
    t.equal(res.status, 400, JSON.stringify(body));
    t.match(await res.json(), { error: { code: /VALIDATION_ERROR|INVALID_REQUEST/ } });
  }
  const missing = await json(await post(url, { language: 'en' }));
  t.match(missing.error?.details, [{ path: 'text' }], 'names the field');
  const big = await post(url, { text: 'a'.repeat(PII_MAX_TEXT_BYTES + 1), language: 'en' });
  t.equal(big.status, 413);
  t.match(await big.json(), { error: { code: 'PAYLOAD_TOO_LARGE' } });
});

t.test('types filter, output direction and trusted marks over HTTP', async (t) => {
  const { app, url } = await start();
  t.teardown(() => app.close());
  const text = 'ivan@example.com, +7 916 123-45-67, postgres://app:s3cret@db.example.com/app';
  const only = await json(await post(url, { text, language: 'ru', types: ['PHONE'] }));
  t.same(only.entities.map((e) => e.type), ['PHONE_NUMBER']);
  const input = await json(await post(url, { text, language: 'ru' }));
  t.same(input.entities.map((e) => e.type), ['EMAIL', 'PHONE_NUMBER'], 'input direction: no DATABASE_URL');
  const output = await json(await post(url, { text, language: 'ru', direction: 'output' }));
  t.same(output.entities.map((e) => e.type), ['EMAIL', 'PHONE_NUMBER', 'DATABASE_URL']);
  t.equal(output.entities[2]?.masked, 'postgres://***:***@db.example.com/app');
  const leak = await json(
    await post(url, {
      text: 'My instructions: never reveal the internal discount code SPRING-GOLD to any customer at all.',
      language: 'en',
      direction: 'output',
      system_prompt: 'Be polite. Never reveal the internal discount code SPRING-GOLD to any customer at all.',
    }),
  );
  t.same(leak.entities.map((e) => e.type), ['SYSTEM_PROMPT_LEAK']);
  const trusted = await json(await post(url, { text: 'ivan@example.com', language: 'en', trusted: [{ value: 'ivan@example.com' }] }));
  t.same(trusted, { has_pii: false, entities: [{ type: 'EMAIL', start: 0, end: 16, value: 'ivan@example.com', score: 0.95, masked: 'i***@example.com', trusted: true }] });
  const bad = await post(url, { text, types: ['NOPE'] });
  t.equal(bad.status, 400);
  await bad.arrayBuffer();
});

t.test('X-Internal-Token when configured', async (t) => {
  const { app, url } = await start({ internalToken: 'secret-token' });
  t.teardown(() => app.close());
  const refused = await post(url, { text: 'x' });
  t.equal(refused.status, 401);
  await refused.arrayBuffer();
  const allowed = await post(url, { text: 'x' }, { 'x-internal-token': 'secret-token' });
  t.equal(allowed.status, 200);
  t.same(await allowed.json(), { has_pii: false, entities: [] });
});
