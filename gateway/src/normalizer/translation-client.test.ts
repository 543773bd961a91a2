import t from 'tap';
import { createTranslationClient } from './translation-client.js';
import { startTranslationPeer } from '../testing/translation-peer.js';

t.test('a 200 answer is the translation; token and trace id are sent', async (t) => {
  const peer = await startTranslationPeer();
  t.teardown(() => peer.close());
  const client = createTranslationClient({ url: peer.url, internalToken: 's3cret', timeoutMs: 2000 });
  t.teardown(() => client.close());
  t.equal(client.kind, 'translation');
  const r = await client.detect({ text: 'мир привет', source_lang: 'ru', target_lang: 'en' }, { traceId: 'trace-1' });
  t.same(r, { translation: 'EN: привет мир', source_lang: 'ru', target_lang: 'en', model: 'peer', latency_ms: 1 });
  t.equal(peer.requests[0]!.headers['x-internal-token'], 's3cret');
  t.equal(peer.requests[0]!.headers['x-trace-id'], 'trace-1');
  // keep-alive: a second call reuses the pool
  await client.detect({ text: 'a b', source_lang: 'ru', target_lang: 'en' });
  t.equal(peer.requests.length, 2);
});

t.test('503 → SERVICE_UNAVAILABLE; other errors keep the service’s code and status', async (t) => {
  const peer = await startTranslationPeer();
  t.teardown(() => peer.close());
  const client = createTranslationClient({ url: peer.url, timeoutMs: 2000 });
  t.teardown(() => client.close());
  await t.rejects(client.detect({ text: '[503]', source_lang: 'ru', target_lang: 'en' }), { code: 'SERVICE_UNAVAILABLE', status: 503, message: /TRANSLATION_MODEL_DIR/ });
  await t.rejects(client.detect({ text: '[400]', source_lang: 'xx', target_lang: 'en' }), { code: 'VALIDATION_ERROR', status: 400, details: [{ path: 'source_lang' }] });
  await t.rejects(client.detect({ text: '[500]', source_lang: 'ru', target_lang: 'en' }), { code: 'INTERNAL_ERROR', status: 500 });
});

t.test('network failures and timeouts are SERVICE_UNAVAILABLE', async (t) => {
  const peer = await startTranslationPeer();
  t.teardown(() => peer.close());
  const client = createTranslationClient({ url: peer.url, timeoutMs: 300 });
  t.teardown(() => client.close());
  const started = Date.now();
  await t.rejects(client.detect({ text: '[hang]', source_lang: 'ru', target_lang: 'en' }), { code: 'SERVICE_UNAVAILABLE', message: /no answer within 300 ms/ });
  t.ok(Date.now() - started < 2000);
  await t.rejects(client.detect({ text: '[reset]', source_lang: 'ru', target_lang: 'en' }), { code: 'SERVICE_UNAVAILABLE' });
  const controller = new AbortController();
  const pending = client.detect({ text: '[hang]', source_lang: 'ru', target_lang: 'en' }, { signal: controller.signal });
  controller.abort();
  await t.rejects(pending, { code: 'SERVICE_UNAVAILABLE', message: /caller stopped waiting/ });

  const closedPeer = await startTranslationPeer();
  const url = closedPeer.url;
  await closedPeer.close();
  const refused = createTranslationClient({ url, timeoutMs: 1000 });
  t.teardown(() => refused.close());
  await t.rejects(refused.detect({ text: 'x', source_lang: 'ru', target_lang: 'en' }), { code: 'SERVICE_UNAVAILABLE', message: /ECONNREFUSED|connect/ });
});
