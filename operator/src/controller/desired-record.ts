// From a custom resource to the registry record it stands for: the spec back in the model's
// snake_case, Secret references resolved, references by name turned into record ids, and the result
// checked with the core model's Create schema (the admin API's own rules). A resource that cannot be
// turned into a valid record gives a SpecError (its reason goes into the Ready condition).
import { ZodError } from 'zod';
import {
  ContentPolicyCreate,
  ExporterCreate,
  ProfileCreate,
  ProviderCreate,
  UPSTREAM_AUTH_SECRET_FIELDS,
  zodIssues,
  type ResourceStore,
} from '@palisade/core';
import { specSchema } from '../crd/build.js';
import { KAFKA_SECRET_FIELDS, type KindName } from '../crd/kinds.js';
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

type Fields = Record<string, unknown>;
const isObject = (v: unknown): v is Fields => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The value of a `{name, key}` Secret reference; `where` names the field for the message. */
function readSecretRef(ref: Fields, namespace: string, lookups: Lookups, where: string): string {
  const name = String(ref.name);
  const key = String(ref.key);
  const secret = lookups.secret(namespace, name, key);
  if (!secret.found) throw new SpecError('SecretNotFound', `Secret ${namespace}/${name} not found (spec.${where})`);
  if (secret.value === undefined) throw new SpecError('SecretKeyNotFound', `Secret ${namespace}/${name} has no key ${key} (spec.${where})`);
  return secret.value;
}

function resolveSecretRefs(holder: Fields, fields: readonly string[], namespace: string, lookups: Lookups, where: string) {
  for (const field of fields) {
    const refField = secretRefField(field);
    const ref = holder[refField];
    if (!isObject(ref)) continue;
    delete holder[refField];
    holder[field] = readSecretRef(ref, namespace, lookups, `${where}.${camelize(refField)}`);
  }
}

function check<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof ZodError) {
      const issues = zodIssues(error).map((i) => `spec.${i.path.split('.').map(camelize).join('.')}: ${i.message}`);
      throw new SpecError('InvalidSpec', issues.join('; '));
    }
    throw error;
  }
}

/** The model input of a resource (clear secrets, ids resolved), validated with the Create schema. */
export async function desiredModel(kind: KindName, resource: CustomResource, lookups: Lookups): Promise<Fields> {
  const namespace = resource.metadata.namespace;
  const model = specToModel(resource.spec ?? {}, specSchema(kind));
  model.name ??= resource.metadata.name;
  switch (kind) {
    case 'Provider': {
      if (isObject(model.upstream_auth)) {
        model.upstream_auth = { ...model.upstream_auth };
        resolveSecretRefs(model.upstream_auth as Fields, UPSTREAM_AUTH_SECRET_FIELDS, namespace, lookups, 'upstreamAuth');
      }
      return check(() => ProviderCreate.parse(model)) as Fields;
    }
    case 'ContentPolicy':
      return check(() => ContentPolicyCreate.parse(model)) as Fields;
    case 'EventExporter': {
      if (isObject(model.config)) {
        const config = { ...model.config };
        resolveSecretRefs(config, KAFKA_SECRET_FIELDS, namespace, lookups, 'config');
        const from = Array.isArray(config.headers_from) ? (config.headers_from as Fields[]) : [];
        delete config.headers_from;
        if (from.length > 0) {
          const headers: Fields = { ...(isObject(config.headers) ? config.headers : {}) };
          for (const entry of from) {
            const ref = isObject(entry.secret_ref) ? entry.secret_ref : {};
            headers[String(entry.header)] = readSecretRef(ref, namespace, lookups, `config.headersFrom[${String(entry.header)}].secretRef`);
          }
          config.headers = headers;
        }
        model.config = config;
      }
      return check(() => ExporterCreate.parse(model)) as Fields;
    }
    case 'SecurityProfile': {
      const providerName = isObject(model.provider_ref) ? String(model.provider_ref.name) : '';
      delete model.provider_ref;
      model.provider_id = await referencedId('Provider', namespace, providerName, lookups, 'providerRef');
      const refs = Array.isArray(model.content_policy_refs) ? (model.content_policy_refs as Fields[]) : [];
      delete model.content_policy_refs;
      const ids: string[] = [];
      for (const ref of refs) ids.push(await referencedId('ContentPolicy', namespace, String(ref.name), lookups, 'contentPolicyRefs'));
      model.content_policy_ids = ids;
      return check(() => ProfileCreate.parse(model)) as Fields;
    }
  }
}

/** The record id of a referenced resource; it must exist and be reconciled into the registry. */
async function referencedId(kind: 'Provider' | 'ContentPolicy', namespace: string, name: string, lookups: Lookups, field: string): Promise<string> {
  const target = lookups.resource(kind, namespace, name);
  if (!target || target.metadata.deletionTimestamp) throw new SpecError(`${kind}NotFound`, `${kind} ${namespace}/${name} not found (spec.${field})`);
  const repo = kind === 'Provider' ? lookups.store.providers : lookups.store.contentPolicies;
  const record = await repo.get(target.metadata.uid);
  if (!record) throw new SpecError(`${kind}NotReady`, `${kind} ${namespace}/${name} is not reconciled into the registry yet (spec.${field})`);
  return target.metadata.uid;
}
