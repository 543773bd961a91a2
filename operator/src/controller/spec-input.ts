// From a custom resource's spec to the input of its registry record, the parts every kind shares: the
// spec back in the model's snake_case, Secret references resolved, and the result checked with the core
// model's Create schema (the admin API's own rules). A resource that cannot become a valid record gives
// a SpecError, whose reason goes into the Reconciled and Ready conditions.
import { ZodError, type z } from 'zod';
import { zodIssues, type ResourceStore } from '@palisade/core';
import { specSchema } from '../crd/build.js';
import type { KindName } from '../crd/kinds.js';
import { camelize, secretRefField, specToModel } from '../crd/naming.js';
import type { CustomResource } from '../kube/client.js';

export class SpecError extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

export interface Lookups {
  /** A key of a Secret in the namespace (decoded), or undefined. */
  secret(namespace: string, name: string, key: string): { found: boolean; value?: string };
  /** A custom resource in the cache. */
  resource(kind: KindName, namespace: string, name: string): CustomResource | undefined;
  store: ResourceStore;
}

export type Fields = Record<string, unknown>;
export const isObject = (v: unknown): v is Fields => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The spec in the model's field names, the display name defaulting to metadata.name. */
export function specFields(kind: KindName, resource: CustomResource): Fields {
  const fields = specToModel(resource.spec ?? {}, specSchema(kind));
  fields.name ??= resource.metadata.name;
  return fields;
}

/** The value of a `{name, key}` Secret reference; `where` names the field for the message. */
export function readSecretRef(ref: Fields, namespace: string, lookups: Lookups, where: string): string {
  const name = String(ref.name);
  const key = String(ref.key);
  const secret = lookups.secret(namespace, name, key);
  if (!secret.found) throw new SpecError('SecretNotFound', `Secret ${namespace}/${name} not found (spec.${where})`);
  if (secret.value === undefined) throw new SpecError('SecretKeyNotFound', `Secret ${namespace}/${name} has no key ${key} (spec.${where})`);
  return secret.value;
}

/** Replaces each `<field>_secret_ref` of `holder` by the Secret's value under `<field>`. */
export function resolveSecretRefs(holder: Fields, fields: readonly string[], namespace: string, lookups: Lookups, where: string) {
  for (const field of fields) {
    const refField = secretRefField(field);
    const ref = holder[refField];
    if (!isObject(ref)) continue;
    delete holder[refField];
    holder[field] = readSecretRef(ref, namespace, lookups, `${where}.${camelize(refField)}`);
  }
}

/** `fields` parsed with a Create schema; its issues named by the CRD's (camelCase) field paths. */
export function validated(schema: z.ZodType, fields: Fields): Fields {
  try {
    return schema.parse(fields) as Fields;
  } catch (error) {
    if (error instanceof ZodError) {
      const issues = zodIssues(error).map((i) => `spec.${i.path.split('.').map(camelize).join('.')}: ${i.message}`);
      throw new SpecError('InvalidSpec', issues.join('; '));
    }
    throw error;
  }
}
