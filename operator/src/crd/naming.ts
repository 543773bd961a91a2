// Field names of the CRDs: the camelCase of the core models' snake_case fields (DECISIONS.md, "JSON
// naming"). The generator names the schema's properties with `camelize`, and the reconciler maps a
// custom resource's spec back to the model by walking that same generated schema with `snakeize`,
// so the two directions can never disagree. Keys of maps (header names, custom_mapping sources,
// category names) are data, not fields, and are never renamed.

/** `target_base_url` → `targetBaseUrl`. */
export function camelize(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** `targetBaseUrl` → `target_base_url`. */
export function snakeize(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/**
 * The field that replaces a secret value in a CRD (snake_case): `token` → `token_secret_ref`,
 * `client_secret` → `client_secret_ref`, `sasl_password` → `sasl_password_secret_ref`.
 */
export function secretRefField(field: string): string {
  return field.endsWith('_secret') ? `${field}_ref` : `${field}_secret_ref`;
}

/** The part of an OpenAPI schema the key conversion needs. */
export interface KeyedSchema {
  properties?: Record<string, KeyedSchema>;
  additionalProperties?: KeyedSchema | boolean;
  items?: KeyedSchema;
}

/**
 * Renames the declared properties of `value` (recursively, following `schema`) with `rename`; map
 * keys (additionalProperties) and unknown fields keep their names. `schema` is keyed by the names
 * the value has now.
 */
export function renameKeys(value: unknown, schema: KeyedSchema | undefined, rename: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => renameKeys(v, schema?.items, rename));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const property = schema?.properties?.[key];
    if (property) out[rename(key)] = renameKeys(v, property, rename);
    else {
      const map = typeof schema?.additionalProperties === 'object' ? schema.additionalProperties : undefined;
      out[key] = renameKeys(v, map, rename);
    }
  }
  return out;
}

/** A CRD spec (camelCase, keyed by the generated schema) → the model's snake_case fields. */
export function specToModel(spec: unknown, crdSchema: KeyedSchema): Record<string, unknown> {
  return renameKeys(spec, crdSchema, snakeize) as Record<string, unknown>;
}
