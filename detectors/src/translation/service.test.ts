import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { listen } from '@palisade/core';
import { TRANSLATE_PATH, TRANSLATION_DEVICE_INFO_PATH, buildTranslationService, loadTranslationEnv } from './service.js';
import { writeTinyTranslationModel } from './tiny-model.js';

async function start(t: { teardown(f: () => unknown): void }, options: Parameters<typeof buildTranslationService>[0]) {
  const { app } = buildTranslationService({ logLevel: 'silent', ...options });
  const base = await listen(app, { port: 0, host: '127.0.0.1' });
  t.teardown(() => app.close());
  return base;
}

const post = (base: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}${TRANSLATE_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

t.test('POST /api/v1/translate and GET /api/v1/device-info with a model', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'palisade-translation-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await writeTinyTranslationModel(join(dir, 'opus-mt-ru-en'), { sourceLang: 'ru', targetLang: 'en', table: { '▁привет': '▁hello', '▁мир': '▁world' } });
  const base = await start(t, { env: loadTranslationEnv({ TRANSLATION_MODEL_DIR: dir }) });

  const ready = await fetch(`${base}/health/ready`);
  t.equal(ready.status, 200);
  t.match(await ready.json(), { checks: { model: { status: 'ok' } } });

  const res = await post(base, { text: 'привет мир', source_lang: 'ru', target_lang: 'en' });
  t.equal(res.status, 200);
  t.match(await res.json(), { translation: 'hello world', source_lang: 'ru', target_lang: 'en', model: 'opus-mt-ru-en', latency_ms: Number });

  const info = await fetch(`${base}${TRANSLATION_DEVICE_INFO_PATH}`);
  t.equal(info.status, 200);
  t.match(await info.json(), { status: 'ok', backend: 'onnxruntime-node', device: 'cpu', compute_type: 'float32', cuda_available: Boolean, cuda_device_count: Number, cuda_device_name: String, model_loaded: true });

  const bad = await post(base, { text: 'x', source_lang: 'RU', target_lang: 'en' });
  t.equal(bad.status, 400);
  t.match(await bad.json(), { error: { code: 'VALIDATION_ERROR', details: [{ path: 'source_lang' }] } });
  const pair = await post(base, { text: 'x', source_lang: 'de', target_lang: 'en' });
  t.equal(pair.status, 400);
  t.match(await pair.json(), { error: { code: 'VALIDATION_ERROR', message: /de-en/ } });
});

t.test('without TRANSLATION_MODEL_DIR: 503 on translate, device-info answers, X-Internal-Token guards', async (t) => {
  const base = await start(t, { env: loadTranslationEnv({ TRANSLATION_SERVICE_MODEL_DEVICE: 'cuda' }), internalToken: 's3cret' });
  const refused = await post(base, { text: 'привет', source_lang: 'ru', target_lang: 'en' });
  t.equal(refused.status, 401);
  await refused.arrayBuffer();
  const headers = { 'x-internal-token': 's3cret' };
  const res = await post(base, { text: 'привет', source_lang: 'ru', target_lang: 'en' }, headers);
  t.equal(res.status, 503);
  t.match(await res.json(), { error: { code: 'SERVICE_UNAVAILABLE', message: /TRANSLATION_MODEL_DIR/ } });
  const info = await fetch(`${base}${TRANSLATION_DEVICE_INFO_PATH}`, { headers });
  t.equal(info.status, 200);
  t.match(await info.json(), { status: 'ok', model_loaded: false, language_pairs: [] });
  const live = await fetch(`${base}/health/live`);
  t.equal(live.status, 200);
  t.match(await live.json(), { status: 'ok', service: 'translation' });
});

t.test('the env: device must be cpu or cuda (not gpu)', async (t) => {
  t.same(loadTranslationEnv({}), { TRANSLATION_MODEL_DIR: undefined, TRANSLATION_SERVICE_MODEL_DEVICE: 'cpu' });
  t.throws(() => loadTranslationEnv({ TRANSLATION_SERVICE_MODEL_DEVICE: 'gpu' }), /TRANSLATION_SERVICE_MODEL_DEVICE/);
});
