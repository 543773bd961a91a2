// Turns the JSON Schema that zod writes for a core model (z.toJSONSchema, input mode) into a
// Kubernetes structural OpenAPI v3 schema: camelCase property names, `const` → `enum`, `X | null` →
// `nullable`, discriminated unions merged into one object whose per-branch rules become CEL
// `x-kubernetes-validations`, `propertyNames` (unsupported by Kubernetes) as a CEL rule, and the
// JavaScript-only regular expressions (lookaround) that the API server's RE2 cannot compile dropped —
// the operator still checks every value with the zod model before anything is stored.
import { isDeepStrictEqual } from 'node:util';
import { camelize } from './naming.js';

export type JsonSchema = Record<string, unknown> & {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: JsonSchema | boolean;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  default?: unknown;
};

export interface CelRule {
  rule: string;
  message: string;
}

const VALIDATIONS = 'x-kubernetes-validations';
/** Formats the API server knows; others would only be ignored, so they are left out. */
const KUBERNETES_FORMATS = new Set(['uuid', 'email', 'hostname', 'ipv4', 'ipv6', 'uri', 'date', 'byte', 'int32', 'int64', 'double', 'float']);
const NOT_RE2 = /\(\?[=!<]|\\[1-9]/;

export function addRules(schema: JsonSchema, rules: CelRule[]): JsonSchema {
  if (rules.length === 0) return schema;
  const existing = (schema[VALIDATIONS] as CelRule[] | undefined) ?? [];
  return { ...schema, [VALIDATIONS]: [...existing, ...rules] };
}

const celString = (value: unknown) => `'${String(value).replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const celList = (values: unknown[]) => `[${values.map(celString).join(', ')}]`;

/** `has(self.a) && has(self.a.b)`: CEL's has() fails on a missing parent. */
function hasPath(path: string[]): string {
  const parts: string[] = [];
  for (let i = 1; i < path.length; i++) parts.push(`has(${path.slice(0, i + 1).join('.')})`);
  return parts.join(' && ');
}

/** A structural, camelCase schema from a zod JSON Schema (snake_case). */
export function toStructural(node: JsonSchema): JsonSchema {
  const { $schema: _s, const: constant, anyOf, oneOf, propertyNames, format, pattern, allOf, ...rest } = node as JsonSchema & {
    $schema?: unknown;
    const?: unknown;
    propertyNames?: JsonSchema;
    format?: string;
    pattern?: string;
  };
  let out: JsonSchema = { ...rest };
  if (constant !== undefined) out.enum = [constant];
  if (typeof format === 'string' && KUBERNETES_FORMATS.has(format)) out.format = format;
  if (typeof pattern === 'string' && !NOT_RE2.test(pattern)) out.pattern = pattern;
  if (allOf) {
    const kept = allOf.map(toStructural).filter((s) => Object.keys(s).length > 0);
    if (kept.length) out.allOf = kept;
  }

  const union = anyOf ?? oneOf;
  if (union) {
    const nonNull = union.filter((b) => b.type !== 'null');
    const nullable = nonNull.length < union.length;
    const inner = nonNull.length === 1 ? toStructural(nonNull[0]!) : mergeUnion(nonNull.map(toStructural));
    out = { ...inner, ...out };
    if (nullable) out.nullable = true;
  }

  if (out.properties) {
    out.properties = Object.fromEntries(Object.entries(out.properties).map(([k, v]) => [camelize(k), toStructural(v)]));
  }
  if (out.required) out.required = out.required.map(camelize);
  if (out.items) out.items = toStructural(out.items);
  if (typeof out.additionalProperties === 'object') out.additionalProperties = toStructural(out.additionalProperties);
  if (propertyNames?.enum) {
    out.maxProperties = propertyNames.enum.length;
    out = addRules(out, [{ rule: `self.all(k, k in ${celList(propertyNames.enum)})`, message: `keys must be one of ${propertyNames.enum.join(', ')}` }]);
  }
  return out;
}

/** The property whose single enum value tells the branches of a union apart (`type`). */
function discriminatorOf(branches: JsonSchema[]): string | undefined {
  const first = branches[0]?.properties ?? {};
  return Object.keys(first).find((key) =>
    branches.every((b) => {
      const values = b.properties?.[key]?.enum;
      return Array.isArray(values) && values.length === 1 && b.required?.includes(key);
    }),
  );
}

const withoutDefault = ({ default: _d, ...schema }: JsonSchema): JsonSchema => schema;

interface Part {
  tag: unknown;
  schema: JsonSchema;
}

/**
 * One object schema for a discriminated union (structural schemas cannot branch). A field of some
 * branches only loses its default (it would be filled in for every branch) and gets a rule that it is
 * set only with those types; a field required by some branches gets a rule per branch.
 */
export function mergeUnion(branches: JsonSchema[]): JsonSchema {
  const discriminator = discriminatorOf(branches);
  if (!discriminator) throw new Error('a union in a CRD schema needs a discriminator field');
  const parts = branches.map((b) => ({ tag: b.properties![discriminator]!.enum![0], schema: b }));
  const rules: CelRule[] = [];
  const tagPath = `self.${discriminator}`;
  const merged = mergeParts(parts, ['self'], discriminator, tagPath, rules);
  merged.properties![discriminator] = { type: 'string', enum: parts.map((p) => p.tag) };
  return addRules(merged, rules);
}

function mergeParts(parts: Part[], path: string[], discriminator: string | null, tagPath: string, rules: CelRule[]): JsonSchema {
  const tagIs = (tags: unknown[]) => (tags.length === 1 ? `${tagPath} == ${celString(tags[0])}` : `${tagPath} in ${celList(tags)}`);
  const keys = [...new Set(parts.flatMap((p) => Object.keys(p.schema.properties ?? {})))];
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const key of keys) {
    if (key === discriminator) continue;
    const owners = parts.filter((p) => p.schema.properties && key in p.schema.properties);
    const schemas = owners.map((o) => o.schema.properties![key]!);
    const everywhere = owners.length === parts.length;
    const fieldPath = [...path, key];
    if (everywhere && schemas.every((s) => isDeepStrictEqual(s, schemas[0]))) {
      properties[key] = schemas[0]!;
    } else if (schemas.every((s) => s.type === 'object' && s.properties)) {
      const nested = mergeParts(
        owners.map((o, i) => ({ tag: o.tag, schema: schemas[i]! })),
        fieldPath,
        null,
        tagPath,
        rules,
      );
      properties[key] = withoutDefault(nested);
    } else {
      properties[key] = withoutDefault(schemas[0]!);
    }
    if (!everywhere) {
      const tags = owners.map((o) => o.tag);
      rules.push({ rule: `!(${hasPath(fieldPath)}) || ${tagIs(tags)}`, message: `${fieldPath.slice(1).join('.')} applies to type ${tags.join(', ')} only` });
    }
    const requiredBy = owners.filter((o) => o.schema.required?.includes(key));
    if (requiredBy.length === parts.length) required.push(key);
    else {
      for (const owner of requiredBy) {
        rules.push({ rule: `${tagPath} != ${celString(owner.tag)} || (${hasPath(fieldPath)})`, message: `${fieldPath.slice(1).join('.')} is required for type ${String(owner.tag)}` });
      }
    }
  }
  if (discriminator) required.unshift(discriminator);
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}
