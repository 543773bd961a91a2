// Test harness of the Admin API route modules (exporters, security events, dashboard, retention):
// a real fastify service from core's createService with an AccessControl that follows the spec's role
// rules, the principal taken from x-test-roles / x-test-tenant headers. The Admin API's own auth plugin
// replaces it in the app; the routes depend only on the contract (admin/src/auth/contract.ts).
import { createService, highestRole, listen, PalisadeError, type RoleName } from '@palisade/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { request as httpRequest } from 'undici';
import type { AccessControl, AdminRouteContext, Principal } from '../auth/contract.js';
import { allows } from '../auth/permissions.js';

function principalFromHeaders(request: FastifyRequest): Principal {
  const roles = request.headers['x-test-roles'];
  if (typeof roles !== 'string') throw new PalisadeError('UNAUTHENTICATED');
  const groups = roles.split(',').map((r) => r.trim()).filter(Boolean);
  const known = groups.filter((g): g is RoleName => highestRole([g]) !== null);
  const tenant = request.headers['x-test-tenant'];
  return {
    userId: 'test-user',
    username: 'test-user',
    email: 'test-user@example.test',
    roles: known,
    role: highestRole(known),
    tenantId: typeof tenant === 'string' && tenant ? tenant : 'default',
  };
}

export function createTestAccessControl(): AccessControl {
  const access: AccessControl = {
    require: (permission) => async (request) => {
      const principal = principalFromHeaders(request);
      if (!allows(principal.roles, permission)) {
        throw new PalisadeError('FORBIDDEN', { message: `this action needs the ${permission} permission` });
      }
    },
    principal: principalFromHeaders,
    tenantFor(request, requested) {
      const principal = principalFromHeaders(request);
      if (!requested || requested === principal.tenantId) return principal.tenantId;
      if (principal.role !== 'super-admin') throw new PalisadeError('FORBIDDEN', { message: `no access to tenant ${requested}` });
      return requested;
    },
    tenantsFor(request, requested) {
      const principal = principalFromHeaders(request);
      if (!requested && principal.role === 'super-admin') return undefined;
      return [access.tenantFor(request, requested)];
    },
  };
  return access;
}

/** A settable clock for retention and dashboard tests. */
export function createTestClock(start = new Date('2026-03-01T12:00:00.000Z')) {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    set: (at: Date | string) => void (current = new Date(at).getTime()),
    advanceDays: (days: number) => void (current += days * 86_400_000),
  };
}

export interface TestApp {
  app: FastifyInstance;
  base: string;
  /** One HTTP call as a caller with `roles` (comma-separated; null = no identity) of `tenant`. */
  call(method: string, path: string, options?: { roles?: string | null; tenant?: string; body?: unknown }): Promise<{ status: number; body: any }>;
}

/** Builds, mounts and starts an app on 127.0.0.1 (closed by the test's teardown). */
export async function startTestApp(
  t: { teardown(fn: () => unknown): void },
  register: (app: FastifyInstance, ctx: AdminRouteContext) => void,
  now: () => Date = () => new Date(),
): Promise<TestApp> {
  const { app } = createService({ name: 'admin-test', logLevel: 'silent' });
  // As in the Admin API app (route-schema.ts): schemas document, zod validates in the handlers.
  app.setValidatorCompiler(() => () => true);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  register(app, { access: createTestAccessControl(), now });
  const base = await listen(app, { port: 0 });
  t.teardown(() => app.close());
  return {
    app,
    base,
    async call(method, path, options = {}) {
      const roles = options.roles === undefined ? 'admin' : options.roles;
      const headers: Record<string, string> = { 'x-test-tenant': options.tenant ?? 'default' };
      if (roles !== null) headers['x-test-roles'] = roles;
      if (options.body !== undefined) headers['content-type'] = 'application/json';
      const res = await httpRequest(`${base}${path}`, {
        method: method as 'GET',
        headers,
        ...(options.body === undefined ? {} : { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) }),
      });
      const text = await res.body.text();
      return { status: res.statusCode, body: text ? JSON.parse(text) : undefined };
    },
  };
}
