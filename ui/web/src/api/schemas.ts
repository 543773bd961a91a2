// Request body schemas straight from the Admin API's OpenAPI document, for the forms: the form of a
// resource validates with the same JSON Schema the API documents (made from its zod model).
import type { RJSFSchema } from '@rjsf/utils';
import openapi from './openapi.json';

type Doc = { paths: Record<string, Record<string, { requestBody?: { content?: { 'application/json'?: { schema?: unknown } } } }>> };

/** OpenAPI 3.0's `nullable: true` as JSON Schema's type union, which the form validator understands. */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (!node || typeof node !== 'object') return node;
  const stringChoice = simplestStringChoice(node as { anyOf?: unknown });
  if (stringChoice) return toJsonSchema(stringChoice);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && value && typeof value === 'object') {
      // Property names are data, not keywords: a field called "description" or "pattern" is a field.
      out[key] = Object.fromEntries(Object.entries(value).map(([name, prop]) => [name, toJsonSchema(prop)]));
      continue;
    }
    if (key === 'nullable' || key === 'description' && typeof value !== 'string') continue;
    if (key === 'pattern' && !compilesForTheForm(value)) continue;
    out[key] = toJsonSchema(value);
  }
  // A choice of object shapes told apart by a one-value `type` (the exporter kinds): each choice is
  // named by that value, not "Option 1..5", and its `type` is filled in.
  for (const key of ['oneOf', 'anyOf'] as const) {
    const choices = out[key];
    if (!Array.isArray(choices)) continue;
    for (const choice of choices as Array<{ title?: string; properties?: { type?: { enum?: unknown[]; default?: unknown } } }>) {
      const type = choice?.properties?.type;
      if (!type || !Array.isArray(type.enum) || type.enum.length !== 1) continue;
      if (!choice.title) choice.title = String(type.enum[0]);
      // The choice already says the type: filled in, not asked again.
      if (type.default === undefined) type.default = type.enum[0];
    }
  }
  const source = node as { nullable?: boolean; type?: string };
  if (source.nullable && typeof source.type === 'string') out.type = [source.type, 'null'];
  // Labels: "request_timeout_ms" reads "Request timeout ms" unless the schema has a title.
  if (out.properties && typeof out.properties === 'object') {
    for (const [key, prop] of Object.entries(out.properties as Record<string, Record<string, unknown>>)) {
      if (prop && typeof prop === 'object' && !prop.title) prop.title = humanize(key);
    }
  }
  return out;
}

/**
 * The form's validator compiles patterns with the `u` flag, under which some of zod's patterns are
 * syntax errors (its e-mail pattern has a bare `]`), and one such pattern fails the whole form
 * without a message. Such a pattern is left to the API, whose error lands on the field.
 */
function compilesForTheForm(pattern: unknown): boolean {
  try {
    new RegExp(String(pattern), 'u');
    return true;
  } catch {
    return false;
  }
}

/**
 * A value that may be any of several strings (a period bound: a date or a date-time) would be a
 * "pick option 1 or 2" select in the form. It is shown as its simplest choice (a date picker when a
 * date is allowed); the API still accepts every choice.
 */
function simplestStringChoice(node: { anyOf?: unknown }): Record<string, unknown> | undefined {
  const options = node.anyOf;
  if (!Array.isArray(options) || options.length === 0) return undefined;
  if (!options.every((o) => o && typeof o === 'object' && (o as { type?: unknown }).type === 'string')) return undefined;
  const chosen = (options.find((o) => (o as { format?: unknown }).format === 'date') ?? options[0]) as Record<string, unknown>;
  const { anyOf: _choices, ...rest } = node as Record<string, unknown>;
  return { ...chosen, ...rest };
}

function humanize(key: string): string {
  const words = key.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function bodySchema(path: string, method: 'post' | 'put'): RJSFSchema | undefined {
  const schema = (openapi as Doc).paths[path]?.[method]?.requestBody?.content?.['application/json']?.schema;
  return schema ? (toJsonSchema(schema) as RJSFSchema) : undefined;
}

/** Fields a create accepts but an update does not: fixed at creation, shown read-only when editing. */
export function immutableFields(collectionPath: string, itemPath: string): string[] {
  const create = bodySchema(collectionPath, 'post');
  const update = bodySchema(itemPath, 'put');
  const keys = (s: RJSFSchema | undefined) => Object.keys((s?.properties as object | undefined) ?? {});
  const updatable = new Set(keys(update));
  return keys(create).filter((k) => !updatable.has(k));
}
