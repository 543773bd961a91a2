import t from 'tap';
import { z } from 'zod';
import { KAFKA_SECRET_FIELDS } from './exporter-configs.js';
import { Exporter, ExporterSpec } from './exporter.js';
import { Provider, ProviderUpdate, UPSTREAM_AUTH_SECRET_FIELDS } from './provider.js';
import { mapSecretValues, secret, secretKeysOf, secretValuesOf, isSecretHeaderName } from './secret.js';
import { UserCreate } from './user.js';
import { maskAuditBody, AUDIT_REDACTED_VALUE } from './audit-record.js';

const mask = (schema: z.ZodType, value: unknown) => mapSecretValues(schema, value, () => 'X');

t.test('the models mark their secret fields', async (t) => {
  t.same([...UPSTREAM_AUTH_SECRET_FIELDS].sort(), ['client_secret', 'key', 'token']);
  t.same(KAFKA_SECRET_FIELDS, ['sasl_password']);
  t.same(secretKeysOf(UserCreate), ['password']);
  const webhook = { name: 'w', type: 'webhook', config: { url: 'http://a.test', headers: { Authorization: 'Bearer x', 'X-Team': 'blue' } } };
  t.same(secretValuesOf(ExporterSpec, webhook).map((s) => s.path), [['config', 'headers', 'Authorization'], ['config', 'headers', 'X-Team']]);
  const kafka = { type: 'kafka', config: { brokers: ['a:1'], sasl_password: 'p', sasl_username: 'u' } };
  t.same(mask(Exporter, kafka), { type: 'kafka', config: { brokers: ['a:1'], sasl_password: 'X', sasl_username: 'u' } });
  const provider = { name: 'p', upstream_auth: { type: 'oauth2_client_credentials', client_id: 'id', client_secret: 's', token_url: 'http://t' } };
  t.same(mask(Provider, provider), { name: 'p', upstream_auth: { ...provider.upstream_auth, client_secret: 'X' } });
  t.same(mask(ProviderUpdate, { upstream_auth: { type: 'bearer', token: 't' } }), { upstream_auth: { type: 'bearer', token: 'X' } }, 'through the update schema (optional, refine)');
});

t.test('the walk: unions by discriminator, any member when unknown; input never changed', async (t) => {
  const Auth = z.discriminatedUnion('type', [
    z.object({ type: z.literal('a'), key: secret(z.string()) }),
    z.object({ type: z.literal('b'), key: z.string(), pass: secret(z.string()) }),
  ]);
  t.same(mask(Auth, { type: 'b', key: 'k', pass: 'p' }), { type: 'b', key: 'k', pass: 'X' }, "member b: its key is not secret");
  t.same(mask(Auth, { key: 'k', pass: 'p' }), { key: 'X', pass: 'X' }, 'no discriminator: every member applies');
  const input = { list: [{ s: 'one' }, { s: 'two' }], other: { s: 'kept' } };
  const Schema = z.object({ list: z.array(z.object({ s: secret(z.string()) })).optional() });
  t.same(mask(Schema, input), { list: [{ s: 'X' }, { s: 'X' }], other: { s: 'kept' } });
  t.equal(input.list[0]!.s, 'one');
  t.same(mask(z.preprocess((v) => v, Schema), { list: [{ s: 'a' }] }), { list: [{ s: 'X' }] }, 'through z.preprocess');
  t.equal(mask(Schema, 'not an object'), 'not an object');
});

t.test('CRD/JSON schemas do not carry the marks', async (t) => {
  t.notMatch(JSON.stringify(z.toJSONSchema(ExporterSpec, { unrepresentable: 'any' })), /"secret"/);
});

t.test('audit masking: marks, names, credential headers, detector spans', async (t) => {
  t.ok(isSecretHeaderName('Proxy-Authorization') && isSecretHeaderName('SET-COOKIE') && isSecretHeaderName('api-key'));
  t.notOk(isSecretHeaderName('X-Team'));
  const body = {
    config: { headers: { 'X-Team': 'blue', Authorization: 'Bearer z' } },
    any: { cookie: 'c=1', 'x-api-key': 'k' },
    text: 'key AAA and BBB',
  };
  const masked = maskAuditBody(body, {
    model: ExporterSpec,
    findSecrets: (text) => [...text.matchAll(/AAA|BBB/g)].map((m) => ({ start: m.index, end: m.index + 3 })),
  });
  t.same(masked, {
    config: { headers: { 'X-Team': AUDIT_REDACTED_VALUE, Authorization: AUDIT_REDACTED_VALUE } },
    any: { cookie: AUDIT_REDACTED_VALUE, 'x-api-key': AUDIT_REDACTED_VALUE },
    text: `key ${AUDIT_REDACTED_VALUE} and ${AUDIT_REDACTED_VALUE}`,
  });
});
