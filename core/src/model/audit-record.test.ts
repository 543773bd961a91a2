import t from 'tap';
import {
  AUDIT_ACTION_BY_METHOD,
  AUDIT_REDACTED_VALUE,
  AuditLogQuery,
  AuditRecord,
  maskAuditBody,
} from './audit-record.js';
import { issuePaths, parseOk } from '../testing/model.js';

const record = {
  id: '6f2b8a9e-1c3d-4e5f-8a7b-9c0d1e2f3a4b',
  user_id: 'dev-user',
  user_email: 'dev@localhost',
  user_role: 'admin',
  action: 'CREATE',
  resource_type: 'providers',
  resource_id: '0a1b2c3d-4e5f-4a7b-8c9d-0e1f2a3b4c5d',
  request_method: 'POST',
  request_path: '/api/v1/providers',
  request_body: { name: 'p' },
  response_status: 201,
  source_ip: '10.0.0.7',
  timestamp: '2025-03-01T10:00:00.000Z',
};

t.test('a record of the spec table', async (t) => {
  t.same(parseOk(AuditRecord, record), record);
  for (const [field, value] of [
    ['id', 'x'],
    ['action', 'READ'],
    ['resource_type', 'widgets'],
    ['resource_id', 'not-a-uuid'],
    ['request_method', 'GET'],
    ['response_status', 99],
    ['response_status', 600],
    ['timestamp', 'yesterday'],
  ] as const) {
    t.same(issuePaths(AuditRecord, { ...record, [field]: value }), [field], `${field}=${value}`);
  }
  for (const type of ['providers', 'profiles', 'policies', 'exporters', 'reports', 'users', 'retention_settings']) {
    t.same(issuePaths(AuditRecord, { ...record, resource_type: type }), [], type);
  }
  t.same(issuePaths(AuditRecord, { ...record, resource_id: null, request_body: null }), []);
});

t.test('methods map to actions', async (t) => {
  t.same(AUDIT_ACTION_BY_METHOD, { POST: 'CREATE', PUT: 'UPDATE', PATCH: 'UPDATE', DELETE: 'DELETE' });
});

t.test('secrets are masked at any depth, case-insensitively', async (t) => {
  const body = {
    username: 'ivan',
    Password: 'hunter22',
    nested: { Token: 'abc', list: [{ api_key: 'k1', keep: 'v' }], SECRET: 's' },
    upstream_auth: { type: 'oauth2_client_credentials', client_id: 'gw', client_secret: 'cs' },
    config: { sasl_password: 'sp', sasl_username: 'u' },
  };
  const copy = structuredClone(body);
  t.same(maskAuditBody(body), {
    username: 'ivan',
    Password: AUDIT_REDACTED_VALUE,
    nested: { Token: AUDIT_REDACTED_VALUE, list: [{ api_key: AUDIT_REDACTED_VALUE, keep: 'v' }], SECRET: AUDIT_REDACTED_VALUE },
    upstream_auth: { type: 'oauth2_client_credentials', client_id: 'gw', client_secret: AUDIT_REDACTED_VALUE },
    config: { sasl_password: AUDIT_REDACTED_VALUE, sasl_username: 'u' },
  });
  t.same(body, copy, 'the input is not changed');
  t.equal(AUDIT_REDACTED_VALUE, '***REDACTED***');
  t.equal(maskAuditBody(null), null);
});

t.test('the audit-log query', async (t) => {
  t.same(parseOk(AuditLogQuery, {}), { limit: 50, offset: 0 });
  t.same(parseOk(AuditLogQuery, { action: 'create', limit: '1000', offset: '20' }), { action: 'CREATE', limit: 1000, offset: 20 });
  t.same(issuePaths(AuditLogQuery, { limit: '1001' }), ['limit']);
  t.same(issuePaths(AuditLogQuery, { limit: '0' }), ['limit']);
  t.same(issuePaths(AuditLogQuery, { action: 'READ' }), ['action']);
  t.same(issuePaths(AuditLogQuery, { resource_id: 'nope' }), ['resource_id']);
});
