// The role × tenant matrix of the Admin API as data: one row per route with the permission it needs,
// what the call needs to exist first, and its success status. admin-api/access-matrix.test.ts runs every row
// for every role and for the caller's own and another tenant, and fails when a registered /api/v1
// route has no row here.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEventRepository, createReportRepository, createSecretBox, createSecurityEvent, type SecurityEvent } from '@palisade/core';
import type { Permission } from '../auth/contract.js';
import { createExporterOperations } from '../exporters/operations.js';
import { contentPolicyBody, providerBody } from './admin-api.js';
import type { AdminApi } from '../admin-api/build-admin-api.js';

export interface PreparedCall {
  path: string;
  body?: unknown;
}

export interface MatrixRow {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The route as registered, for the test names. */
  route: string;
  permission: Permission;
  /** The answer when access is granted. */
  ok: number;
  /** false for routes that act on no tenant (e.g. the role list): only the own-tenant column runs. */
  tenantScoped?: boolean;
  /**
   * Creates what the call acts on in `tenant` and returns the call. `viaQuery`: name the tenant in the
   * call (`?tenant_id=`, or a create body's tenant_id) — collections and creates; item calls reach
   * another tenant through the record's id.
   */
  prepare(api: AdminApi, tenant: string, viaQuery: boolean): Promise<PreparedCall>;
}

const q = (viaQuery: boolean, tenant: string) => (viaQuery ? `?tenant_id=${encodeURIComponent(tenant)}` : '');
const unique = () => Math.random().toString(36).slice(2, 10);

async function provider(api: AdminApi, tenant: string, state: 'DRAFT' | 'ACTIVE' | 'ARCHIVED' = 'DRAFT') {
  const p = await api.providers.create(providerBody(), tenant);
  if (state !== 'DRAFT') await api.providers.activate(p.id, tenant);
  if (state === 'ARCHIVED') await api.providers.archive(p.id, tenant);
  return p;
}

async function profile(api: AdminApi, tenant: string, state: 'DRAFT' | 'ACTIVE' | 'ARCHIVED' = 'DRAFT') {
  const p = await provider(api, tenant, 'ACTIVE');
  const prof = await api.profiles.create({ name: `prof-${unique()}`, provider_id: p.id }, tenant);
  if (state !== 'DRAFT') await api.profiles.activate(prof.id, tenant);
  if (state === 'ARCHIVED') await api.profiles.archive(prof.id, tenant);
  return prof;
}

async function user(api: AdminApi, tenant: string, roles: Array<'viewer' | 'operator'> = []) {
  const u = await api.identity.createUser({ username: `u-${unique()}`, email: `${unique()}@example.com`, password: 'correct horse', first_name: 'A', last_name: 'B', tenant_id: tenant });
  for (const role of roles) await api.identity.assignRole(u.id, role);
  return u;
}

/** Where the matrix's file exporters write (their test call really appends to it, so no peer is needed). */
export const MATRIX_EXPORT_FILE = join(tmpdir(), `palisade-matrix-${process.pid}.jsonl`);


const fileExporterBody = () => ({ name: `ex-${unique()}`, type: 'file', config: { path: MATRIX_EXPORT_FILE } });

async function exporter(api: AdminApi, tenant: string) {
  const ops = createExporterOperations({ store: api.store, secrets: createSecretBox('test-key'), now: () => new Date() });
  return ops.create(fileExporterBody(), tenant);
}

async function securityEvent(api: AdminApi, tenant: string) {
  const event = createSecurityEvent({ tenant_id: tenant, trace_id: `trace-${unique()}`, event_type: 'REQUEST_BLOCKED', decision: 'BLOCK' }, new Date());
  await createEventRepository<SecurityEvent>(api.db).insert(event);
  return event;
}

/** A report record of the tenant; COMPLETED with a small file when `completed`. */
async function report(api: AdminApi, tenant: string, completed = false) {
  const reports = createReportRepository(api.db);
  const r = await reports.create({
    id: globalThis.crypto.randomUUID(), type: 'PII_DLP', format: 'CSV', period_start: '2026-01-01', period_end: '2026-01-02', tenant_id: tenant,
    all_tenants: false, status: 'PENDING', error: null, created_by: 'matrix', created_at: new Date().toISOString(), completed_at: null, size_bytes: null,
  });
  if (completed) {
    await api.db.query(`UPDATE reports SET lease_owner = 'matrix' WHERE id = $1`, [r.id]);
    await reports.complete(r.id, 'matrix', Buffer.from('section,row\r\n'), new Date().toISOString());
  }
  return r;
}

const reportBody = (tenant?: string) => ({ type: 'PII_DLP', format: 'CSV', period_start: '2026-01-01', period_end: '2026-01-31', ...(tenant ? { tenant_id: tenant } : {}) });

export const ADMIN_API_MATRIX: MatrixRow[] = [
  // providers
  { method: 'GET', route: '/api/v1/providers', permission: 'read', ok: 200, prepare: async (_api, t, v) => ({ path: `/api/v1/providers${q(v, t)}` }) },
  { method: 'POST', route: '/api/v1/providers', permission: 'write', ok: 201, prepare: async (_api, t, v) => ({ path: `/api/v1/providers${q(v, t)}`, body: providerBody() }) },
  { method: 'GET', route: '/api/v1/providers/:id', permission: 'read', ok: 200, prepare: async (api, t) => ({ path: `/api/v1/providers/${(await provider(api, t)).id}` }) },
  { method: 'PUT', route: '/api/v1/providers/:id', permission: 'write', ok: 200, prepare: async (api, t) => ({ path: `/api/v1/providers/${(await provider(api, t)).id}`, body: { priority: 5 } }) },
  { method: 'DELETE', route: '/api/v1/providers/:id', permission: 'delete', ok: 204, prepare: async (api, t) => ({ path: `/api/v1/providers/${(await provider(api, t)).id}` }) },
  { method: 'POST', route: '/api/v1/providers/:id/activate', permission: 'write', ok: 200, prepare: async (api, t) => ({ path: `/api/v1/providers/${(await provider(api, t)).id}/activate` }) },
  { method: 'POST', route: '/api/v1/providers/:id/archive', permission: 'write', ok: 200, prepare: async (api, t) => ({ path: `/api/v1/providers/${(await provider(api, t, 'ACTIVE')).id}/archive` }) },
  { method: 'POST', route: '/api/v1/providers/:id/reactivate', permission: 'write', ok: 200, prepare: async (api, t) => ({ path: `/api/v1/providers/${(await provider(api, t, 'ARCHIVED')).id}/reactivate` }) },
  { method: 'POST', route: '/api/v1/providers/:id/health-check', permission: 'write', ok: 200, prepare: async (api, t) => ({ path: `/api/v1/providers/${(await provider(api, t, 'ACTIVE')).id}/health-check` }) },
  { method: 'POST', route: '/api/v1/providers/mapping-test', permission: 'read', ok: 200, tenantScoped: false, prepare: async () => ({ path: '/api/v1/providers/mapping-test', body: { mapping_preset: 'vendor_a_chat_completions' } }) },
  // profiles
  { method: 'GET', route: '/api/v1/profiles', permission: 'read', ok: 200, prepare: async (_api, t, v) => ({ path: `/api/v1/profiles${q(v, t)}` }) },
  {
    method: 'POST',
    route: '/api/v1/profiles',
    permission: 'write',
    ok: 201,
    prepare: async (api, t, v) => ({ path: `/api/v1/profiles${q(v, t)}`, body: { name: `prof-${unique()}`, provider_id: (await provider(api, t, 'ACTIVE')).id } }),
  },
  { method: 'GET', route: '/api/v1/profiles/:id', permission: 'read', ok: 200, prepare: async (api, t) => ({ path: `/api/v1/profiles/${(await profile(api, t)).id}` }) },
  { method: 'PUT', route: '/api/v1/profiles/:id', permission: 'write', ok: 200, prepare: async (api, t) => ({ path: `/api/v1/profiles/${(await profile(api, t)).id}`, body: { monitor_only: true } }) },
  { method: 'DELETE', route: '/api/v1/profiles/:id', permission: 'delete', ok: 204, prepare: async (api, t) => ({ path: `/api/v1/profiles/${(await profile(api, t)).id}` }) },
  { method: 'POST', route: '/api/v1/profiles/:id/activate', permission: 'write', ok: 200, prepare: async (api, t) => ({ path: `/api/v1/profiles/${(await profile(api, t)).id}/activate` }) },
  { method: 'POST', route: '/api/v1/profiles/:id/archive', permission: 'write', ok: 200, prepare: async (api, t) => ({ path: `/api/v1/profiles/${(await profile(api, t, 'ACTIVE')).id}/archive` }) },
  { method: 'POST', route: '/api/v1/profiles/:id/reactivate', permission: 'write', ok: 200, prepare: async (api, t) => ({ path: `/api/v1/profiles/${(await profile(api, t, 'ARCHIVED')).id}/reactivate` }) },
  // content policies
  { method: 'GET', route: '/api/v1/content-policies', permission: 'read', ok: 200, prepare: async (_api, t, v) => ({ path: `/api/v1/content-policies${q(v, t)}` }) },
  { method: 'POST', route: '/api/v1/content-policies', permission: 'write', ok: 201, prepare: async (_api, t, v) => ({ path: `/api/v1/content-policies${q(v, t)}`, body: contentPolicyBody() }) },
  { method: 'GET', route: '/api/v1/content-policies/:id', permission: 'read', ok: 200, prepare: async (api, t) => ({ path: `/api/v1/content-policies/${(await api.contentPolicies.create(contentPolicyBody(), t)).id}` }) },
  {
    method: 'PUT',
    route: '/api/v1/content-policies/:id',
    permission: 'write',
    ok: 200,
    prepare: async (api, t) => ({ path: `/api/v1/content-policies/${(await api.contentPolicies.create(contentPolicyBody(), t)).id}`, body: { priority: 3 } }),
  },
  { method: 'POST', route: '/api/v1/content-policies/:id/activate', permission: 'write', ok: 200, prepare: async (api, t) => ({ path: `/api/v1/content-policies/${(await api.contentPolicies.create(contentPolicyBody(), t)).id}/activate` }) },
  { method: 'DELETE', route: '/api/v1/content-policies/:id', permission: 'delete', ok: 204, prepare: async (api, t) => ({ path: `/api/v1/content-policies/${(await api.contentPolicies.create(contentPolicyBody(), t)).id}` }) },
  {
    method: 'POST',
    route: '/api/v1/content-policies/test',
    permission: 'read',
    ok: 200,
    prepare: async (api, t, v) => ({ path: `/api/v1/content-policies/test${q(v, t)}`, body: { id: (await api.contentPolicies.create(contentPolicyBody(), t)).id, text: 'a forbidden word' } }),
  },
  // gateway API keys
  { method: 'GET', route: '/api/v1/api-keys', permission: 'read', ok: 200, prepare: async (_api, t, v) => ({ path: `/api/v1/api-keys${q(v, t)}` }) },
  { method: 'POST', route: '/api/v1/api-keys', permission: 'write', ok: 201, prepare: async (_api, t, v) => ({ path: '/api/v1/api-keys', body: { name: `k-${unique()}`, ...(v ? { tenant_id: t } : {}) } }) },
  { method: 'GET', route: '/api/v1/api-keys/:id', permission: 'read', ok: 200, prepare: async (api, t) => ({ path: `/api/v1/api-keys/${(await api.apiKeys.create({ name: 'k' }, t)).id}` }) },
  { method: 'PUT', route: '/api/v1/api-keys/:id', permission: 'write', ok: 200, prepare: async (api, t) => ({ path: `/api/v1/api-keys/${(await api.apiKeys.create({ name: 'k' }, t)).id}`, body: { name: 'renamed' } }) },
  { method: 'POST', route: '/api/v1/api-keys/:id/revoke', permission: 'write', ok: 200, prepare: async (api, t) => ({ path: `/api/v1/api-keys/${(await api.apiKeys.create({ name: 'k' }, t)).id}/revoke` }) },
  { method: 'DELETE', route: '/api/v1/api-keys/:id', permission: 'delete', ok: 204, prepare: async (api, t) => ({ path: `/api/v1/api-keys/${(await api.apiKeys.create({ name: 'k' }, t)).id}` }) },
  // users and roles
  { method: 'GET', route: '/api/v1/users', permission: 'manage-users', ok: 200, prepare: async (_api, t, v) => ({ path: `/api/v1/users${q(v, t)}` }) },
  {
    method: 'POST',
    route: '/api/v1/users',
    permission: 'manage-users',
    ok: 201,
    prepare: async (_api, t, v) => ({
      path: '/api/v1/users',
      body: { username: `u-${unique()}`, email: `${unique()}@example.com`, password: 'correct horse', first_name: 'A', last_name: 'B', ...(v ? { tenant_id: t } : {}) },
    }),
  },
  { method: 'GET', route: '/api/v1/users/:id', permission: 'manage-users', ok: 200, prepare: async (api, t) => ({ path: `/api/v1/users/${(await user(api, t)).id}` }) },
  { method: 'PUT', route: '/api/v1/users/:id', permission: 'manage-users', ok: 200, prepare: async (api, t) => ({ path: `/api/v1/users/${(await user(api, t)).id}`, body: { first_name: 'C' } }) },
  { method: 'POST', route: '/api/v1/users/:id/disable', permission: 'manage-users', ok: 200, prepare: async (api, t) => ({ path: `/api/v1/users/${(await user(api, t)).id}/disable` }) },
  { method: 'POST', route: '/api/v1/users/:id/enable', permission: 'manage-users', ok: 200, prepare: async (api, t) => ({ path: `/api/v1/users/${(await user(api, t)).id}/enable` }) },
  { method: 'DELETE', route: '/api/v1/users/:id', permission: 'manage-users', ok: 204, prepare: async (api, t) => ({ path: `/api/v1/users/${(await user(api, t)).id}` }) },
  { method: 'PUT', route: '/api/v1/users/:id/reset-password', permission: 'manage-users', ok: 204, prepare: async (api, t) => ({ path: `/api/v1/users/${(await user(api, t)).id}/reset-password`, body: { password: 'temporary-pass', temporary: true } }) },
  { method: 'GET', route: '/api/v1/users/:id/roles', permission: 'manage-users', ok: 200, prepare: async (api, t) => ({ path: `/api/v1/users/${(await user(api, t)).id}/roles` }) },
  { method: 'POST', route: '/api/v1/users/:id/roles', permission: 'manage-users', ok: 200, prepare: async (api, t) => ({ path: `/api/v1/users/${(await user(api, t)).id}/roles`, body: { role_name: 'operator' } }) },
  { method: 'DELETE', route: '/api/v1/users/:id/roles/:role_name', permission: 'manage-users', ok: 204, prepare: async (api, t) => ({ path: `/api/v1/users/${(await user(api, t, ['viewer'])).id}/roles/viewer` }) },
  { method: 'GET', route: '/api/v1/roles', permission: 'manage-users', ok: 200, tenantScoped: false, prepare: async () => ({ path: '/api/v1/roles' }) },
  // who am I (any role reads it; it is about the caller, so no tenant column)
  { method: 'GET', route: '/api/v1/me', permission: 'read', ok: 200, tenantScoped: false, prepare: async () => ({ path: '/api/v1/me' }) },
  // audit log
  { method: 'GET', route: '/api/v1/audit-log', permission: 'read-audit', ok: 200, prepare: async (_api, t, v) => ({ path: `/api/v1/audit-log${q(v, t)}` }) },
  // exporters
  { method: 'GET', route: '/api/v1/exporters', permission: 'read', ok: 200, prepare: async (_api, t, v) => ({ path: `/api/v1/exporters${q(v, t)}` }) },
  {
    method: 'POST',
    route: '/api/v1/exporters',
    permission: 'write',
    ok: 201,
    prepare: async (_api, t, v) => ({ path: '/api/v1/exporters', body: { ...fileExporterBody(), ...(v ? { tenant_id: t } : {}) } }),
  },
  { method: 'GET', route: '/api/v1/exporters/:id', permission: 'read', ok: 200, prepare: async (api, t) => ({ path: `/api/v1/exporters/${(await exporter(api, t)).id}` }) },
  { method: 'PUT', route: '/api/v1/exporters/:id', permission: 'write', ok: 200, prepare: async (api, t) => ({ path: `/api/v1/exporters/${(await exporter(api, t)).id}`, body: { enabled: false } }) },
  { method: 'DELETE', route: '/api/v1/exporters/:id', permission: 'delete', ok: 204, prepare: async (api, t) => ({ path: `/api/v1/exporters/${(await exporter(api, t)).id}` }) },
  { method: 'POST', route: '/api/v1/exporters/:id/test', permission: 'write', ok: 200, prepare: async (api, t) => ({ path: `/api/v1/exporters/${(await exporter(api, t)).id}/test` }) },
  // security events and the dashboard
  { method: 'GET', route: '/api/v1/security-events', permission: 'read', ok: 200, prepare: async (_api, t, v) => ({ path: `/api/v1/security-events${q(v, t)}` }) },
  { method: 'GET', route: '/api/v1/security-events/:id', permission: 'read', ok: 200, prepare: async (api, t) => ({ path: `/api/v1/security-events/${(await securityEvent(api, t)).id}` }) },
  { method: 'GET', route: '/api/v1/dashboard', permission: 'read', ok: 200, prepare: async (_api, t, v) => ({ path: `/api/v1/dashboard${q(v, t)}` }) },
  // reports: operators generate, every role downloads, deleting is admin's
  { method: 'GET', route: '/api/v1/reports', permission: 'download-reports', ok: 200, prepare: async (_api, t, v) => ({ path: `/api/v1/reports${q(v, t)}` }) },
  { method: 'POST', route: '/api/v1/reports', permission: 'generate-reports', ok: 202, prepare: async (_api, t, v) => ({ path: '/api/v1/reports', body: reportBody(v ? t : undefined) }) },
  { method: 'GET', route: '/api/v1/reports/:id', permission: 'download-reports', ok: 200, prepare: async (api, t) => ({ path: `/api/v1/reports/${(await report(api, t)).id}` }) },
  { method: 'GET', route: '/api/v1/reports/:id/download', permission: 'download-reports', ok: 200, prepare: async (api, t) => ({ path: `/api/v1/reports/${(await report(api, t, true)).id}/download` }) },
  { method: 'DELETE', route: '/api/v1/reports/:id', permission: 'delete', ok: 204, prepare: async (api, t) => ({ path: `/api/v1/reports/${(await report(api, t)).id}` }) },
  // retention settings are global (one row for the installation): no tenant column
  { method: 'GET', route: '/api/v1/retention-settings', permission: 'manage-retention', ok: 200, tenantScoped: false, prepare: async () => ({ path: '/api/v1/retention-settings' }) },
  { method: 'PUT', route: '/api/v1/retention-settings', permission: 'manage-retention', ok: 200, tenantScoped: false, prepare: async () => ({ path: '/api/v1/retention-settings', body: { event_retention_days: 90 } }) },
];

/** Item routes reach another tenant by the record's id; collections and creates name the tenant. */
export function namesTenant(row: MatrixRow): boolean {
  return !row.route.includes(':id');
}
