// Shared by the Admin API tests: an app on a real port and a caller that sends forwarded identities.
import type { Test } from 'tap';
import { createSecretBox, listen, type Database, type ProviderHealthCheck } from '@palisade/core';
import { request } from 'undici';
import { createPostgresIdentityProvider } from '../identity/postgres-identity.js';
import { buildAdminApi, type AdminApiDeps } from '../admin-api/build-admin-api.js';

export interface Caller {
  user: string;
  /** X-Forwarded-Groups, comma-separated. */
  groups: string;
  tenant?: string;
  email?: string;
}

export interface CallOptions {
  as?: Caller | null;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  text: string;
}

export function identityHeaders(caller: Caller): Record<string, string> {
  return {
    'x-forwarded-user': caller.user,
    'x-forwarded-preferred-username': caller.user,
    'x-forwarded-email': caller.email ?? `${caller.user}@example.com`,
    'x-forwarded-groups': caller.groups,
    ...(caller.tenant ? { 'x-forwarded-tenant-id': caller.tenant } : {}),
  };
}

export async function startAdminApi(t: Test, db: Database, over: Partial<AdminApiDeps> = {}) {
  const changes = { count: 0 };
  const health: Array<{ id: string; tenant: string; by: string }> = [];
  const api = buildAdminApi({
    db,
    secrets: createSecretBox('test-key'),
    logLevel: 'silent',
    authProxyEnabled: true,
    // Cheap password hashes: the matrix creates many users (hash strength is tested in identity/).
    identity: createPostgresIdentityProvider({ db, passwordCostLog2: 10, ...(over.now ? { now: over.now } : {}) }),
    publisher: { publish: async () => (changes.count++, 'rev-test'), schedule: () => void changes.count++, syncNow: async () => 'rev-test' },
    checkHealth: async (id, tenant, by) => {
      health.push({ id, tenant, by });
      return healthyCheck(id, tenant, by);
    },
    ...over,
  });
  const base = await listen(api.app, { port: 0 });
  t.teardown(() => api.app.close());
  async function call(method: string, path: string, options: CallOptions = {}): Promise<Answer> {
    const res = await request(`${base}${path}`, {
      method: method as 'GET',
      headers: {
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(options.as ? identityHeaders(options.as) : {}),
        ...options.headers,
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    const text = await res.body.text();
    let body: unknown = undefined;
    if (text && String(res.headers['content-type'] ?? '').includes('json')) body = JSON.parse(text);
    return { status: res.statusCode, headers: res.headers, body, text };
  }
  return { api, base, call, changes, health };
}

export const providerBody = (over: Record<string, unknown> = {}) => ({
  name: `p-${Math.random().toString(36).slice(2, 10)}`,
  provider_type: 'vendor_a',
  match_type: 'url',
  match_value: '/v1/chat/*',
  target_base_url: 'http://127.0.0.1:9',
  mapping_preset: 'vendor_a_chat_completions',
  ...over,
});

export const contentPolicyBody = (over: Record<string, unknown> = {}) => ({
  name: `cp-${Math.random().toString(36).slice(2, 10)}`,
  type: 'blocklist',
  rules: [{ kind: 'keyword', pattern: 'forbidden' }],
  action: 'block',
  ...over,
});

/** A check now's answer for route tests that do not probe a backend (the checker has its own tests). */
export async function healthyCheck(providerId: string, _tenantId: string, performedBy: string): Promise<ProviderHealthCheck> {
  return { provider_id: providerId, health_status: 'HEALTHY', health_latency_ms: 1, health_error_message: null, health_checked_at: new Date().toISOString(), attempts: 1, performed_by: performedBy };
}
