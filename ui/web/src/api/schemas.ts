// Request body schemas straight from the Admin API's OpenAPI document, for the forms: the form of a
// resource validates with the same JSON Schema the API documents (made from its zod model). Labels are
// not set here: the form labels each field in the console's language (i18n/field-labels.ts).
import type { RJSFSchema } from '@rjsf/utils';
import openapi from './openapi.json';

export type OpenApiDoc = { paths: Record<string, Record<string, { requestBody?: { content?: { 'application/json'?: { schema?: unknown } } } }>> };

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
      // A property the API refuses outright (`not: {}`, an update's fixed field) is no field of the form.
      const fields = Object.entries(value).filter(([, prop]) => !refused(prop));
      out[key] = Object.fromEntries(fields.map(([name, prop]) => [name, toJsonSchema(prop)]));
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
  return out;
}

/** zod's `never` (a field an update refuses): `{ not: {} }`. */
function refused(prop: unknown): boolean {
  const not = (prop as { not?: unknown } | null)?.not;
  return Boolean(not) && typeof not === 'object' && Object.keys(not as object).length === 0;
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

/** Freezes a converted schema all the way down, so that a caller changing it fails in dev and tests. */
function deepFreeze<T>(value: T): T {
  // Hand-written: six lines over plain JSON, not worth a dependency.
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

export interface FormSchemas {
  /** The request body schema of an operation as the form uses it; the same (read-only) object every call. */
  bodySchema(path: string, method: 'post' | 'put'): RJSFSchema | undefined;
  /** Fields a create accepts but an update does not: fixed at creation, shown read-only when editing. */
  immutableFields(collectionPath: string, itemPath: string): readonly string[];
}

/**
 * The forms' schemas of one OpenAPI document. Converting a schema walks it and compiles its patterns,
 * so each (path, method) is converted once and the result is shared by every render: it is frozen
 * where `freeze` (dev and tests) so that a caller that would change it fails loudly instead of changing
 * every other form.
 */
export function formSchemas(doc: OpenApiDoc, options: { freeze: boolean }): FormSchemas {
  const bodies = new Map<string, RJSFSchema | undefined>();
  const fixed = new Map<string, readonly string[]>();
  const bodySchema = (path: string, method: 'post' | 'put'): RJSFSchema | undefined => {
    const key = `${method} ${path}`;
    if (!bodies.has(key)) {
      const schema = doc.paths[path]?.[method]?.requestBody?.content?.['application/json']?.schema;
      const converted = schema ? (toJsonSchema(schema) as RJSFSchema) : undefined;
      bodies.set(key, options.freeze ? deepFreeze(converted) : converted);
    }
    return bodies.get(key);
  };
  const immutableFields = (collectionPath: string, itemPath: string): readonly string[] => {
    const key = `${collectionPath} ${itemPath}`;
    let fields = fixed.get(key);
    if (!fields) {
      const updatable = new Set(fieldNames(bodySchema(itemPath, 'put')));
      fields = fieldNames(bodySchema(collectionPath, 'post')).filter((k) => !updatable.has(k));
      if (options.freeze) Object.freeze(fields);
      fixed.set(key, fields);
    }
    return fields;
  };
  return { bodySchema, immutableFields };
}

/** The field names of a body schema, those of each choice of a union (an exporter's kinds) included. */
function fieldNames(schema: RJSFSchema | undefined): string[] {
  const choices = [schema, ...((schema?.oneOf ?? schema?.anyOf ?? []) as RJSFSchema[])];
  return [...new Set(choices.flatMap((s) => Object.keys((s?.properties as object | undefined) ?? {})))];
}

const forms = formSchemas(openapi as OpenApiDoc, { freeze: import.meta.env.DEV || import.meta.env.MODE === 'test' });
export const bodySchema = forms.bodySchema;
export const immutableFields = forms.immutableFields;
