// Secret fields are marked once, in the models (`secret(z.string()…)`), and every place that seals,
// opens or masks a record walks the value alongside its model and reads those marks: the registry and
// Admin API answers, the audit log, the sealing at rest and the operator. A new secret field is one
// `secret(...)` in its model, not an edit of every masker.
//
// The marks live in a registry of their own rather than zod's global one (`.meta()`): global metadata
// is copied into z.toJSONSchema output, and the CRD schemas built from these models must not carry
// keywords Kubernetes does not know.
import { z } from 'zod';
import type { PiiType } from './pii.js';

const secretMarks = z.registry<{ secret: true }>();

/** Marks a schema as holding a secret (sealed at rest, never answered or logged in clear). */
export function secret<T extends z.ZodType>(schema: T): T {
  secretMarks.add(schema, { secret: true });
  return schema;
}

export function isSecretSchema(schema: z.ZodType): boolean {
  return secretMarks.has(schema);
}

/**
 * Header names whose value is a credential whatever the header map they appear in (webhook headers, a
 * request body echoed into the audit log). Compared in lower case.
 */
export const SECRET_HEADER_NAMES: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'api-key',
  'x-auth-token',
  'x-internal-token',
]);

export const isSecretHeaderName = (name: string): boolean => SECRET_HEADER_NAMES.has(name.toLowerCase());

/** The PII detector's types that are credentials: a string holding one is masked in the audit log. */
export const SECRET_PII_TYPES = ['API_KEY', 'GITHUB_TOKEN', 'JWT', 'DATABASE_URL', 'PRIVATE_KEY'] as const satisfies readonly PiiType[];

export type SecretPath = ReadonlyArray<string | number>;
type Fields = Record<string, unknown>;
type Def = { type: string } & Record<string, unknown>;

const isFields = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
const defOf = (schema: z.ZodType) => schema._zod.def as unknown as Def;

/** The members of a union that `value` can be: by the discriminator when there is one, else all. */
function unionMembers(def: Def, value: unknown): z.ZodType[] {
  const options = def.options as z.ZodType[];
  const key = def.discriminator as string | undefined;
  if (!key || !isFields(value)) return options;
  const matching = options.filter((option) => {
    const field = (option as z.ZodObject).shape?.[key] as z.ZodType | undefined;
    const values = field ? (defOf(field).values as unknown[] | undefined) : undefined;
    return values?.includes(value[key]) ?? false;
  });
  // An input that names no known member (a partial update, an invalid body) is treated as any of them,
  // so masking never misses a secret; sealing only ever sees parsed values.
  return matching.length > 0 ? matching : options;
}

/**
 * A copy of `value` with `fn` applied to every string that `schema` marks secret, at any depth
 * (objects, records, arrays, unions, optional/default/pipe wrappers). Parts the schema does not
 * describe are copied unchanged; `value` itself is never modified.
 */
export function mapSecretValues(schema: z.ZodType, value: unknown, fn: (secretValue: string, path: SecretPath) => string, path: SecretPath = []): unknown {
  if (value === undefined || value === null) return value;
  if (isSecretSchema(schema)) return typeof value === 'string' ? fn(value, path) : value;
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return mapSecretValues(def.innerType as z.ZodType, value, fn, path);
    case 'pipe': {
      // z.preprocess is a pipe from a transform into the schema; .transform() the other way round.
      const out = def.out as z.ZodType;
      return mapSecretValues(defOf(out).type === 'transform' ? (def.in as z.ZodType) : out, value, fn, path);
    }
    case 'lazy':
      return mapSecretValues((def.getter as () => z.ZodType)(), value, fn, path);
    case 'intersection':
      return mapSecretValues(def.right as z.ZodType, mapSecretValues(def.left as z.ZodType, value, fn, path), fn, path);
    case 'union':
      return unionMembers(def, value).reduce<unknown>((acc, member) => mapSecretValues(member, acc, fn, path), value);
    case 'array':
      return Array.isArray(value) ? value.map((item, i) => mapSecretValues(def.element as z.ZodType, item, fn, [...path, i])) : value;
    case 'record':
      return isFields(value) ? mapFields(value, () => def.valueType as z.ZodType, fn, path) : value;
    case 'object': {
      if (!isFields(value)) return value;
      const shape = def.shape as Record<string, z.ZodType>;
      const catchall = def.catchall as z.ZodType | undefined;
      return mapFields(value, (key) => (Object.hasOwn(shape, key) ? shape[key] : catchall), fn, path);
    }
    default:
      return value;
  }
}

function mapFields(value: Fields, schemaOf: (key: string) => z.ZodType | undefined, fn: (secretValue: string, path: SecretPath) => string, path: SecretPath): Fields {
  const out: Fields = {};
  for (const [key, field] of Object.entries(value)) {
    const schema = schemaOf(key);
    // defineProperty: a `__proto__` key from JSON stays a plain own property.
    Object.defineProperty(out, key, { value: schema ? mapSecretValues(schema, field, fn, [...path, key]) : field, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** The values of `value` that `schema` marks secret, with their paths. */
export function secretValuesOf(schema: z.ZodType, value: unknown): Array<{ path: SecretPath; value: string }> {
  const found: Array<{ path: SecretPath; value: string }> = [];
  mapSecretValues(schema, value, (secretValue, path) => {
    found.push({ path, value: secretValue });
    return secretValue;
  });
  return found;
}

/** The top-level keys of an object schema (or of any member of a union of them) that are marked secret. */
export function secretKeysOf(schema: z.ZodType): string[] {
  const def = defOf(schema);
  if (def.type === 'union') return [...new Set((def.options as z.ZodType[]).flatMap(secretKeysOf))];
  if (def.type !== 'object') return [];
  return Object.entries(def.shape as Record<string, z.ZodType>)
    .filter(([, field]) => containsMark(field))
    .map(([key]) => key);
}

function containsMark(schema: z.ZodType): boolean {
  if (isSecretSchema(schema)) return true;
  const def = defOf(schema);
  const inner = def.innerType as z.ZodType | undefined;
  return inner ? containsMark(inner) : false;
}

/** The value found at `path`, or undefined. */
export function valueAt(value: unknown, path: SecretPath): unknown {
  let at: unknown = value;
  for (const key of path) at = at !== null && typeof at === 'object' ? (at as Record<string | number, unknown>)[key] : undefined;
  return at;
}
