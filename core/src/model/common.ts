// Building blocks shared by the resource models: ids, timestamps, record metadata, network address
// formats, and the helpers that derive input schemas (aliases, updates) from the plain base objects.
//
// Base object schemas stay plain (no transforms) so that `z.toJSONSchema` can turn them into CRD
// schemas; input normalisation lives in `withInput` (a z.preprocess wrapper) and cross-field rules in
// `.superRefine` on the Create/Update schemas only.
import { z } from 'zod';
import { isIso6391 } from './languages.js';

/** The product version (CEF device_version default; keep in step with package.json). */
export const PALISADE_VERSION = '0.1.0';

export const Uuid = z.uuid();
/** ISO 8601 date-time with `Z` or an offset, as written by `Date.prototype.toISOString`. */
export const IsoDateTime = z.iso.datetime({ offset: true });
/**
 * Tenant ids are names, ids or UUIDs of an identity provider: a conservative charset, so that an id
 * is safe in a log line, an error message, a metric label and a Redis key as it is.
 */
export const TENANT_ID_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9._:@-]*$/;
export const TENANT_ID_MAX_LENGTH = 255;
export const TenantId = z
  .string()
  .min(1)
  .max(TENANT_ID_MAX_LENGTH)
  .regex(TENANT_ID_PATTERN, 'must be letters, digits and . _ : @ - (not starting with . : @ -)');
/** Display name of a managed resource. */
export const Name = z.string().min(1).max(255).regex(/\S/, 'must not be blank');
/** Free text shown in the UI only. */
export const Description = z.string().max(1000);

/** ISO 639-1 language code, lower case (`en`, `ru`). */
export const LanguageCode = z
  .string()
  .regex(/^[a-z]{2}$/, 'must be an ISO 639-1 two-letter language code')
  .refine((v) => !/^[a-z]{2}$/.test(v) || isIso6391(v), 'is not an ISO 639-1 language code');

/** DRAFT → ACTIVE (activate) → ARCHIVED (archive) → ACTIVE (reactivate). */
export const LIFECYCLE_STATUSES = ['DRAFT', 'ACTIVE', 'ARCHIVED'] as const;
export const LifecycleStatus = z.enum(LIFECYCLE_STATUSES);
export type LifecycleStatus = z.infer<typeof LifecycleStatus>;

/** Records reconciled from CRDs are `operator`-managed and read-only through the admin API. */
export const MANAGED_BY = ['api', 'operator'] as const;
export const ManagedBy = z.enum(MANAGED_BY);
export type ManagedBy = z.infer<typeof ManagedBy>;

/** Fields the service sets on every stored admin-managed record. */
export const recordMeta = {
  id: Uuid,
  tenant_id: TenantId,
  managed_by: ManagedBy.default('api'),
  created_at: IsoDateTime,
  updated_at: IsoDateTime,
};

/** Collection paging: `limit` 1-1000 (default 50), `offset` (default 0); query strings are coerced. */
export const ListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export type ListQuery = z.infer<typeof ListQuery>;

/** The path parameters of an item route (`/…/:id`); an id that is not a record's answers 404, not 400. */
export const IdParams = z.object({ id: z.string() });

/** The envelope of a collection's answer. */
export const PageOf = <M extends z.ZodType>(item: M) => z.object({ items: z.array(item), total: z.number().int(), limit: z.number().int(), offset: z.number().int() });

// --- network address formats ------------------------------------------------------------------

const IPV6_BRACKETED = new RegExp(`^\\[${z.regexes.ipv6.source.slice(1, -1)}\\]$`);

/** A hostname, an IPv4 address or an IPv6 address (bare or in brackets). */
export function isHost(value: string): boolean {
  return z.regexes.hostname.test(value) || z.regexes.ipv6.test(value) || IPV6_BRACKETED.test(value);
}

/** `host:port` with a port 1-65535 (IPv6 hosts in brackets: `[::1]:514`). */
export function isHostPort(value: string): boolean {
  const i = value.lastIndexOf(':');
  if (i <= 0) return false;
  const host = value.slice(0, i);
  const port = value.slice(i + 1);
  if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) return false;
  return z.regexes.hostname.test(host) || IPV6_BRACKETED.test(host);
}

export const Host = z.string().max(253).refine(isHost, 'must be a hostname or an IP address');
export const HostPort = z.string().max(300).refine(isHostPort, 'must be host:port with a port 1-65535');
export const Port = z.number().int().min(1).max(65535);

/** An absolute http(s) URL. */
export const HttpUrl = z
  .string()
  .max(2048)
  .regex(/^https?:\/\//i, 'must start with http:// or https://')
  .refine((v) => URL.canParse(v), 'must be a valid URL');

/** An HTTP header name (RFC 9110 token). */
export const HeaderName = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'must be a valid HTTP header name');

// --- input helpers ------------------------------------------------------------------------------

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Wraps an input schema with a normaliser of the raw body (aliases, spellings). Non-objects pass
 * through untouched so that the inner schema reports the type error.
 */
export function withInput<S extends z.ZodType>(
  normalise: (body: Record<string, unknown>) => Record<string, unknown>,
  schema: S,
) {
  return z.preprocess((v) => (isPlainObject(v) ? normalise({ ...v }) : v), schema);
}

/** A field that an update must not carry: any value is an issue at that field's path. */
export function immutable(field: string) {
  return z.never({ error: `${field} is immutable and cannot be changed after creation` }).optional();
}

/**
 * An update body without the immutable fields whose value equals the stored one: resending an
 * unchanged value (a UI that PUTs the whole record) is not a change and must not be rejected.
 */
export function omitUnchanged<T extends Record<string, unknown>>(
  body: T,
  stored: Record<string, unknown>,
  fields: readonly string[],
): Partial<T> {
  const out: Record<string, unknown> = { ...body };
  for (const f of fields) if (f in out && JSON.stringify(out[f]) === JSON.stringify(stored[f])) delete out[f];
  return out as Partial<T>;
}

/** Upper-cases the strings of a list (enum filters compare case-insensitively). */
export function upperList(value: unknown): unknown {
  return Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v.toUpperCase() : v)) : value;
}

/** The type of an update body: every object field optional, recursively. */
export type UpdateOf<T> = T extends readonly unknown[]
  ? T
  : T extends Record<string, unknown>
    ? { [K in keyof T]?: UpdateOf<T[K]> }
    : T;

type UpdateShape<Shape extends z.ZodRawShape> = {
  [K in keyof Shape]: z.ZodOptional<z.ZodType<UpdateOf<z.output<Shape[K]>>, UpdateOf<z.input<Shape[K]>>>>;
};

/**
 * The shape of a partial update derived from a create shape: defaults removed (an absent field means
 * "unchanged", not "reset to default") and every object field optional, recursively, so that a nested
 * object can be updated field by field. Unions (e.g. upstream_auth) are replaced as a whole.
 */
export function updateShape<Shape extends z.ZodRawShape>(shape: Shape): UpdateShape<Shape> {
  const out: Record<string, z.ZodType> = {};
  for (const [key, schema] of Object.entries(shape)) out[key] = optionalize(stripDefaults(schema as z.ZodType));
  return out as UpdateShape<Shape>;
}

function optionalize(schema: z.ZodType): z.ZodType {
  return schema instanceof z.ZodOptional ? schema : schema.optional();
}

function stripDefaults(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodDefault || schema instanceof z.ZodPrefault) {
    return stripDefaults(schema.unwrap() as z.ZodType);
  }
  if (schema instanceof z.ZodOptional) return optionalize(stripDefaults(schema.unwrap() as z.ZodType));
  if (schema instanceof z.ZodNullable) return stripDefaults(schema.unwrap() as z.ZodType).nullable();
  if (schema instanceof z.ZodObject) {
    const obj = z.object(updateShape(schema.shape));
    const catchall = schema._zod.def.catchall as z.ZodType | undefined;
    return catchall ? obj.catchall(catchall) : obj;
  }
  return schema;
}
