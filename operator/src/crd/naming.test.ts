import t from 'tap';
import { camelize, secretRefField, snakeize, specToModel } from './naming.js';
import { specSchema } from './build.js';

t.test('camelize and snakeize are inverse on model field names', async (t) => {
  for (const [snake, camel] of [
    ['target_base_url', 'targetBaseUrl'],
    ['request_timeout_ms', 'requestTimeoutMs'],
    ['name', 'name'],
    ['tls_ca_file', 'tlsCaFile'],
  ]) {
    t.equal(camelize(snake!), camel);
    t.equal(snakeize(camel!), snake);
  }
});

t.test('secret reference field names', async (t) => {
  t.equal(secretRefField('token'), 'token_secret_ref');
  t.equal(secretRefField('client_secret'), 'client_secret_ref');
  t.equal(camelize(secretRefField('sasl_password')), 'saslPasswordSecretRef');
});

t.test('a spec goes back to the model by the generated schema; map keys stay as they are', async (t) => {
  const model = specToModel(
    {
      type: 'webhook',
      fieldMapping: 'custom',
      customMapping: { trace_id: 'traceId' },
      config: { url: 'http://x', maxRetries: 2, headers: { 'X-Api_Key': 'v' } },
      unknownField: 1,
    },
    specSchema('EventExporter'),
  );
  t.same(model, {
    type: 'webhook',
    field_mapping: 'custom',
    custom_mapping: { trace_id: 'traceId' },
    config: { url: 'http://x', max_retries: 2, headers: { 'X-Api_Key': 'v' } },
    unknownField: 1,
  });
});
