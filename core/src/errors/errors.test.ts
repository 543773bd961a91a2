import t from 'tap';
import { z } from 'zod';
import { ERROR_CATALOGUE, PalisadeError, renderAdminError, renderGatewayError, toPalisadeError } from './index.js';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { languageOf } from '../i18n/language.js';
import { Provider } from '../model/index.js';
import { FIELD_MESSAGES_RU } from './field-messages-ru.js';

t.test('the gateway codes of the spec carry their status and type', async (t) => {
  const expected: Record<string, [number, string]> = {
    NO_BACKEND_CONFIGURED: [502, 'configuration_error'],
    NO_BACKEND_PATH_CONFIGURED: [502, 'configuration_error'],
    PROVIDER_MISSING_TARGET: [500, 'configuration_error'],
    MISSING_FIELD_MAPPING: [500, 'internal_error'],
    POLICY_VIOLATION: [403, 'policy_violation'],
    RESPONSE_BLOCKED: [451, 'content_policy_violation'],
    AUTHENTICATION_FAILED: [401, 'authentication_error'],
    RATE_LIMIT_EXCEEDED: [429, 'rate_limit_error'],
    LLM_REQUEST_FAILED: [502, 'llm_error'],
  };
  for (const [code, [status, type]] of Object.entries(expected)) {
    const entry = ERROR_CATALOGUE[code as keyof typeof ERROR_CATALOGUE];
    t.equal(entry.status, status, code);
    t.equal(entry.type, type, code);
  }
});

t.test('admin codes of DECISIONS.md', async (t) => {
  t.equal(ERROR_CATALOGUE.VALIDATION_ERROR.status, 400);
  t.equal(ERROR_CATALOGUE.UNAUTHENTICATED.status, 401);
  t.equal(ERROR_CATALOGUE.FORBIDDEN.status, 403);
  t.equal(ERROR_CATALOGUE.NOT_FOUND.status, 404);
  t.equal(ERROR_CATALOGUE.CONFLICT.status, 409);
});

t.test('gateway body: optional fields only when set, trace_id only after routing', async (t) => {
  const before = renderGatewayError(new PalisadeError('NO_BACKEND_CONFIGURED'));
  t.same(Object.keys(before.error).sort(), ['code', 'message', 'type']);
  const limited = renderGatewayError(new PalisadeError('RATE_LIMIT_EXCEEDED', { retryAfter: 12 }), 'tid');
  t.same(limited.error, { code: 'RATE_LIMIT_EXCEEDED', message: 'Rate limit exceeded', type: 'rate_limit_error', trace_id: 'tid', retry_after: 12 });
  const blocked = renderGatewayError(new PalisadeError('RESPONSE_BLOCKED', { reasons: ['pii'], status: 422 }), 'tid');
  t.same(blocked.error.reasons, ['pii']);
  const violation = renderGatewayError(new PalisadeError('POLICY_VIOLATION', { details: { jailbreak_score: 0.9, pii_entities: [] } }), 't');
  t.same(violation.error.details, { jailbreak_score: 0.9, pii_entities: [] });
});

t.test('status override for configurable codes', async (t) => {
  t.equal(new PalisadeError('RESPONSE_BLOCKED', { status: 422 }).status, 422);
  t.equal(new PalisadeError('RESPONSE_BLOCKED').status, 451);
});

t.test('zod errors become VALIDATION_ERROR with field paths', async (t) => {
  const parsed = z.object({ config: z.object({ max_retries: z.number().max(10) }) }).safeParse({ config: { max_retries: 11 } });
  t.notOk(parsed.success);
  const err = toPalisadeError(parsed.error);
  t.equal(err.code, 'VALIDATION_ERROR');
  t.equal(err.status, 400);
  const body = renderAdminError(err);
  t.equal(body.error.details?.[0]?.path, 'config.max_retries');
  t.match(err.message, /config\.max_retries/);
});

t.test('unknown errors become INTERNAL_ERROR keeping the cause', async (t) => {
  const cause = new Error('boom');
  const err = toPalisadeError(cause);
  t.equal(err.code, 'INTERNAL_ERROR');
  t.equal(err.cause, cause);
  t.equal(toPalisadeError(err), err);
});

t.test('admin errors in Russian: zod and catalogue texts translated, texts written for one case kept', async (t) => {
  const schema = z.object({
    name: z.string().min(3),
    retries: z.number().int(),
    kind: z.enum(['syslog', 'webhook']),
    target: z.string().refine((v) => v.startsWith('https://'), { message: 'target must use https' }),
  });
  const parsed = schema.safeParse({ name: 'ab', retries: 'three', kind: 'smtp', target: 'http://x' });
  t.notOk(parsed.success);
  const error = toPalisadeError(parsed.error);
  const ru = renderAdminError(error, 'ru').error;
  t.same(ru.details?.map((d) => d.path), ['name', 'retries', 'kind', 'target']);
  t.match(ru.details?.[0]?.message, /^Слишком маленькое значение/);
  // The type it received is kept, though zod's issue no longer holds the input.
  t.equal(ru.details?.[1]?.message, 'Неверный ввод: ожидалось число, получено string', 'zod\'s Russian text, with the received type, not undefined');
  t.match(ru.details?.[2]?.message, /^Неверный вариант/);
  t.equal(ru.details?.[3]?.message, 'target must use https');
  t.equal(ru.message, `Неверное значение поля name: ${ru.details?.[0]?.message}`);
  t.same(renderAdminError(error, 'en').error, renderAdminError(error).error, 'English is the default');
  t.equal(renderAdminError(error).error.details?.[1]?.message, 'Invalid input: expected number, received string');

  t.same(renderAdminError(new PalisadeError('FORBIDDEN'), 'ru').error, { code: 'FORBIDDEN', message: 'Доступ запрещён' });
  t.equal(renderAdminError(new PalisadeError('NOT_FOUND', { message: 'exporter e1 not found' }), 'ru').error.message, 'exporter e1 not found');
  const written = new PalisadeError('VALIDATION_ERROR', { message: 'Invalid to: must not be before from', details: [{ path: 'to', message: 'must not be before from' }] });
  t.same(renderAdminError(written, 'ru').error.details, [{ path: 'to', message: 'must not be before from' }]);
  const named = new PalisadeError('VALIDATION_ERROR', { message: 'Invalid x: constructor', details: [{ path: 'x', message: 'constructor' }] });
  t.same(renderAdminError(named, 'ru').error.details, [{ path: 'x', message: 'constructor' }], "a message that names an object's own property is kept as written");
});

t.test('the language of a request: Accept-Language by q-value, English otherwise', async (t) => {
  t.equal(languageOf('ru-RU,ru;q=0.9,en;q=0.8'), 'ru');
  t.equal(languageOf('en;q=0.9,ru;q=0.5'), 'en');
  t.equal(languageOf('de-DE'), 'en');
  t.equal(languageOf(undefined), 'en');
  t.equal(languageOf(`${'x,'.repeat(10_000)}ru`), 'en', 'an overlong header is cut, not parsed whole');
});

t.test("the models' own field rules in Russian; every entry of the table is a text some model writes", async (t) => {
  const parsed = Provider.pick({ target_base_url: true }).safeParse({ target_base_url: 'ftp://host' });
  t.notOk(parsed.success);
  const ru = renderAdminError(toPalisadeError(parsed.error), 'ru').error;
  t.equal(ru.details?.[0]?.message, 'должно начинаться с http:// или https://');
  t.equal(ru.message, 'Неверное значение поля target_base_url: должно начинаться с http:// или https://');
  const pattern = new PalisadeError('VALIDATION_ERROR', {
    message: "Invalid match_value: a url pattern must start with '/' (glob) or '^' (regular expression)",
    details: [{ path: 'match_value', message: "a url pattern must start with '/' (glob) or '^' (regular expression)" }],
  });
  t.match(renderAdminError(pattern, 'ru').error, { message: /^Неверное значение поля match_value: шаблон URL/, details: [{ path: 'match_value', message: /^шаблон URL/ }] });

  const modelDir = fileURLToPath(new URL('../model/', import.meta.url));
  const sources = readdirSync(modelDir).filter((f) => f.endsWith('.js') && !f.endsWith('.test.js')).map((f) => readFileSync(join(modelDir, f), 'utf8')).join('\n');
  for (const english of Object.keys(FIELD_MESSAGES_RU)) t.ok(sources.includes(JSON.stringify(english).slice(1, -1)) || sources.includes(english), english);
});
