// From an Admin API call to the fields of its audit record (spec "Audit record", "Audit events").
import { AUDIT_ACTION_BY_METHOD, AUDIT_EXCLUDED_PATHS, AUDIT_METHODS, type AuditAction, type AuditMethod, type AuditResourceType } from '@palisade/core';

/**
 * Path segment under /api/v1 → the spec's resource_type. content-policies are the spec's `policies`;
 * `/users/{id}/roles…` is a change of that user (`users`); api-keys are `api_keys`, the one type core's
 * model adds to the spec's list for our gateway credentials.
 */
export const RESOURCE_TYPE_BY_SEGMENT: Readonly<Record<string, AuditResourceType>> = {
  providers: 'providers',
  profiles: 'profiles',
  'content-policies': 'policies',
  exporters: 'exporters',
  reports: 'reports',
  users: 'users',
  'retention-settings': 'retention_settings',
  'api-keys': 'api_keys',
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The path without the query string. */
export function pathOf(url: string): string {
  const i = url.indexOf('?');
  return i === -1 ? url : url.slice(0, i);
}

/** Whether a method is audited at all (GET, HEAD, OPTIONS are not). */
export function isAuditedMethod(method: string): method is AuditMethod {
  return (AUDIT_METHODS as readonly string[]).includes(method);
}

export function auditActionOf(method: AuditMethod): AuditAction {
  return AUDIT_ACTION_BY_METHOD[method];
}

/** /health, /metrics, /docs, /openapi.json, /redoc and everything under them are never audited. */
export function isExcludedPath(path: string): boolean {
  return AUDIT_EXCLUDED_PATHS.some((excluded) => path === excluded || path.startsWith(`${excluded}/`));
}

/**
 * The resource a path names: its type and, when the segment after the collection is a UUID, its id.
 * null for paths outside the audited collections.
 */
export function resourceOfPath(path: string): { type: AuditResourceType; id: string | null } | null {
  const match = /^\/api\/v1\/([^/]+)(?:\/([^/]+))?/.exec(path);
  if (!match) return null;
  const type = RESOURCE_TYPE_BY_SEGMENT[match[1]!];
  if (!type) return null;
  const id = match[2] && UUID.test(match[2]) ? match[2].toLowerCase() : null;
  return { type, id };
}

/** The id of a created record from a JSON reply body (`{ id: … }`), when it is a UUID. */
export function createdIdOf(payload: unknown): string | null {
  let text: string | undefined;
  if (typeof payload === 'string') text = payload;
  else if (Buffer.isBuffer(payload)) text = payload.toString('utf8');
  if (!text || !text.startsWith('{')) return null;
  try {
    const id = (JSON.parse(text) as { id?: unknown }).id;
    return typeof id === 'string' && UUID.test(id) ? id.toLowerCase() : null;
  } catch {
    return null;
  }
}

/** The client address: the first X-Forwarded-For entry (the original client), else the socket's peer. */
export function sourceIpOf(forwardedFor: string | string[] | undefined, socketAddress: string | undefined): string | null {
  const raw = Array.isArray(forwardedFor) ? forwardedFor[0] : forwardedFor;
  const first = raw?.split(',')[0]?.trim();
  return (first || socketAddress || null)?.slice(0, 64) ?? null;
}
