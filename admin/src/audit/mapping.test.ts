import t from 'tap';
import { AUDIT_REDACTED_VALUE, maskAuditBody } from '@palisade/core';
import { auditActionOf, createdIdOf, isAuditedMethod, isExcludedPath, resourceOfPath, sourceIpOf } from './mapping.js';

const ID = '0b7f2c1e-4a5d-4e6f-8a9b-0c1d2e3f4a5b';

t.test('action by method; GET is not audited', async (t) => {
  t.equal(auditActionOf('POST'), 'CREATE');
  t.equal(auditActionOf('PUT'), 'UPDATE');
  t.equal(auditActionOf('PATCH'), 'UPDATE', 'a soft delete by PATCH is an UPDATE');
  t.equal(auditActionOf('DELETE'), 'DELETE');
  for (const method of ['GET', 'HEAD', 'OPTIONS']) t.notOk(isAuditedMethod(method), method);
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) t.ok(isAuditedMethod(method), method);
});

t.test('excluded paths and everything under them', async (t) => {
  for (const path of ['/health', '/health/live', '/metrics', '/docs', '/docs/static/index.html', '/openapi.json', '/redoc', '/redoc/redoc.standalone.js']) {
    t.ok(isExcludedPath(path), path);
  }
  for (const path of ['/api/v1/providers', '/healthz', '/docsx']) t.notOk(isExcludedPath(path), path);
});

t.test('resource type and id from the path', async (t) => {
  t.same(resourceOfPath('/api/v1/providers'), { type: 'providers', id: null });
  t.same(resourceOfPath(`/api/v1/providers/${ID}/activate`), { type: 'providers', id: ID });
  t.same(resourceOfPath(`/api/v1/content-policies/${ID}`), { type: 'policies', id: ID });
  t.same(resourceOfPath(`/api/v1/users/${ID.toUpperCase()}/roles/viewer`), { type: 'users', id: ID });
  t.same(resourceOfPath('/api/v1/retention-settings'), { type: 'retention_settings', id: null });
  t.same(resourceOfPath(`/api/v1/api-keys/${ID}`), { type: 'api_keys', id: ID });
  t.same(resourceOfPath(`/api/v1/exporters/${ID}/test`), { type: 'exporters', id: ID });
  t.same(resourceOfPath(`/api/v1/reports/${ID}`), { type: 'reports', id: ID });
  t.same(resourceOfPath('/api/v1/profiles/not-a-uuid'), { type: 'profiles', id: null });
  t.equal(resourceOfPath('/api/v1/dashboard'), null);
  t.equal(resourceOfPath('/elsewhere'), null);
});

t.test('the created id comes from the JSON answer', async (t) => {
  t.equal(createdIdOf(JSON.stringify({ id: ID, name: 'x' })), ID);
  t.equal(createdIdOf(Buffer.from(JSON.stringify({ id: ID }))), ID);
  t.equal(createdIdOf(JSON.stringify({ id: 'x' })), null);
  t.equal(createdIdOf('[1]'), null);
  t.equal(createdIdOf('{not json'), null);
  t.equal(createdIdOf(undefined), null);
});

t.test('source ip: first X-Forwarded-For entry, else the peer', async (t) => {
  t.equal(sourceIpOf('203.0.113.7, 10.0.0.1', '127.0.0.1'), '203.0.113.7');
  t.equal(sourceIpOf(['198.51.100.2'], '127.0.0.1'), '198.51.100.2');
  t.equal(sourceIpOf(undefined, '127.0.0.1'), '127.0.0.1');
  t.equal(sourceIpOf('', undefined), null);
});

t.test('masking: password, secret, token, api_key at any depth, any case', async (t) => {
  const masked = maskAuditBody({
    username: 'bob',
    Password: 'p1',
    nested: { SECRET: 's', list: [{ token: 't', keep: 1 }, { Api_Key: 'k' }], deeper: { client_secret: 'c' } },
    token: null,
    count: 3,
  });
  t.same(masked, {
    username: 'bob',
    Password: AUDIT_REDACTED_VALUE,
    nested: { SECRET: AUDIT_REDACTED_VALUE, list: [{ token: AUDIT_REDACTED_VALUE, keep: 1 }, { Api_Key: AUDIT_REDACTED_VALUE }], deeper: { client_secret: AUDIT_REDACTED_VALUE } },
    token: null,
    count: 3,
  });
  t.same(maskAuditBody([{ password: 'x' }]), [{ password: AUDIT_REDACTED_VALUE }]);
  t.equal(maskAuditBody('plain'), 'plain');
});
