// Audit record: one per POST/PUT/PATCH/DELETE call to the admin API (spec's Audit record table).
import { z } from 'zod';
import { IsoDateTime, ListQuery, Uuid, isPlainObject } from './common.js';
import { isSecretHeaderName, mapSecretValues } from './secret.js';

export const AUDIT_ACTIONS = ['CREATE', 'UPDATE', 'DELETE'] as const;
export const AuditAction = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof AuditAction>;

export const AUDIT_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;
export const AuditMethod = z.enum(AUDIT_METHODS);
export type AuditMethod = z.infer<typeof AuditMethod>;

/** POST=CREATE; PUT and PATCH=UPDATE (a soft delete by PATCH is an UPDATE); DELETE=DELETE. */
export const AUDIT_ACTION_BY_METHOD: Readonly<Record<AuditMethod, AuditAction>> = {
  POST: 'CREATE',
  PUT: 'UPDATE',
  PATCH: 'UPDATE',
  DELETE: 'DELETE',
};

/** The spec's resource types, plus api_keys (our gateway credentials, also managed by the admin API). */
export const AUDIT_RESOURCE_TYPES = [
  'providers',
  'profiles',
  'policies',
  'exporters',
  'reports',
  'users',
  'retention_settings',
  'api_keys',
] as const;
export const AuditResourceType = z.enum(AUDIT_RESOURCE_TYPES);
export type AuditResourceType = z.infer<typeof AuditResourceType>;

/** Calls under these paths are never audited, whatever the method. */
export const AUDIT_EXCLUDED_PATHS = ['/health', '/metrics', '/docs', '/openapi.json', '/redoc'] as const;

export const AUDIT_REDACTED_VALUE = '***REDACTED***';

/**
 * Field names whose values are masked in request_body: the spec's password, secret, token, api_key
 * (case-insensitive), plus the secret fields of our own bodies (client_secret, sasl_password, the key
 * of an api_key_header upstream auth, …) that end in one of those words, plus credential header names
 * (Authorization, Cookie, X-Api-Key, …) wherever a headers map appears.
 */
const SECRET_FIELD = /^(password|secret|token|api_key|key)$|_(password|secret|token|key)$/i;

export function isAuditSecretField(name: string): boolean {
  return SECRET_FIELD.test(name) || isSecretHeaderName(name);
}

/** A span of a string that holds a secret (start inclusive, end exclusive). */
export interface SecretSpan {
  start: number;
  end: number;
}

export interface AuditMaskOptions {
  /** The model of the body: every field it marks secret is masked, whatever its name. */
  model?: z.ZodType | undefined;
  /** Finds secrets inside free text (the PII detector's secret types); each span is replaced. */
  findSecrets?: ((text: string) => readonly SecretSpan[]) | undefined;
}

/**
 * A copy of a request body with every secret replaced by AUDIT_REDACTED_VALUE: the fields the model
 * marks, fields and headers named like secrets at any depth, and secrets found inside strings.
 */
export function maskAuditBody(body: unknown, options: AuditMaskOptions = {}): unknown {
  const marked = options.model ? mapSecretValues(options.model, body, () => AUDIT_REDACTED_VALUE) : body;
  return maskByName(marked, options.findSecrets);
}

function maskByName(body: unknown, findSecrets: AuditMaskOptions['findSecrets']): unknown {
  if (typeof body === 'string') return findSecrets ? redactSpans(body, findSecrets(body)) : body;
  if (Array.isArray(body)) return body.map((item) => maskByName(item, findSecrets));
  if (!isPlainObject(body)) return body;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    Object.defineProperty(out, k, {
      value: isAuditSecretField(k) && v !== null && v !== undefined ? AUDIT_REDACTED_VALUE : maskByName(v, findSecrets),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

function redactSpans(text: string, spans: readonly SecretSpan[]): string {
  if (spans.length === 0) return text;
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const { start, end } of sorted) {
    if (end <= at) continue;
    out += text.slice(at, Math.max(at, start)) + AUDIT_REDACTED_VALUE;
    at = end;
  }
  return out + text.slice(at);
}

export const AuditRecord = z.object({
  id: Uuid,
  /** A UUID, or the user name (development mode writes dev-user). */
  user_id: z.string().min(1).max(255),
  user_email: z.string().max(320).nullable().default(null),
  /** The caller's (highest) role at the time of the action. */
  user_role: z.string().max(64).nullable().default(null),
  action: AuditAction,
  resource_type: AuditResourceType,
  /** Null when the call names no single resource (e.g. retention settings). */
  resource_id: Uuid.nullable().default(null),
  request_method: AuditMethod,
  request_path: z.string().min(1).max(2048),
  /** JSON, secrets masked (maskAuditBody). */
  request_body: z.unknown().nullable().default(null),
  response_status: z.number().int().min(100).max(599),
  /** From X-Forwarded-For or the direct connection. */
  source_ip: z.string().max(64).nullable().default(null),
  /** UTC, ISO 8601. */
  timestamp: IsoDateTime,
});
export type AuditRecord = z.infer<typeof AuditRecord>;

/** GET /audit-log query (sorted by timestamp descending). */
export const AuditLogQuery = z.preprocess(
  (v) => (isPlainObject(v) && typeof v.action === 'string' ? { ...v, action: v.action.toUpperCase() } : v),
  ListQuery.extend({
    user_id: z.string().min(1).max(255).optional(),
    action: AuditAction.optional(),
    resource_type: AuditResourceType.optional(),
    resource_id: Uuid.optional(),
  }),
);
export type AuditLogQuery = z.infer<typeof AuditLogQuery>;
