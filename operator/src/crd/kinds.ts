// The four custom resources: how each one's spec is shaped from its core model (tenant from the
// namespace, references by name, secrets from Kubernetes Secrets), the cross-field rules of the
// models' superRefine that CEL can express, and the columns `kubectl get` prints.
import { z } from 'zod';
import { ContentPolicySpec, ExporterSpec, KAFKA_SECRET_FIELDS, ProfileSpec, ProviderSpec, UPSTREAM_AUTH_SECRET_FIELDS } from '@palisade/core';
import type { CelRule, JsonSchema } from './openapi.js';
import { secretRefField } from './naming.js';

export const GROUP = 'palisade.io';
export const VERSION = 'v1alpha1';
export const API_VERSION = `${GROUP}/${VERSION}`;
/** Namespace label naming the tenant of the resources in it (else the namespace name). */
export const TENANT_LABEL = 'palisade.io/tenant';
export const FINALIZER = 'palisade.io/registry-cleanup';

export type KindName = 'Provider' | 'SecurityProfile' | 'ContentPolicy' | 'EventExporter';

export interface PrinterColumn {
  name: string;
  type: 'string' | 'integer' | 'date' | 'boolean' | 'number';
  jsonPath: string;
  description?: string;
  priority?: number;
}

export interface KindDefinition {
  kind: KindName;
  plural: string;
  singular: string;
  shortNames: string[];
  description: string;
  /** The core model of the spec (snake_case). */
  model: z.ZodType;
  /** Secret fields (snake_case, relative to the object that holds them) replaced by `*SecretRef`. */
  secretFields: Record<string, readonly string[]>;
  /** Edits of the model's JSON Schema (snake_case) before it becomes structural. */
  shape(schema: JsonSchema): JsonSchema;
  /** Cross-field rules on the (camelCase) spec. */
  rules: CelRule[];
  columns: PrinterColumn[];
}

/** A reference to a key of a Kubernetes Secret in the resource's namespace. */
export const SECRET_KEY_REF: JsonSchema = {
  type: 'object',
  description: 'A key of a Secret in the same namespace.',
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 253 },
    key: { type: 'string', minLength: 1, maxLength: 253 },
  },
  required: ['name', 'key'],
};

const nameRef = (what: string): JsonSchema => ({
  type: 'object',
  description: `The metadata.name of a ${what} in the same namespace.`,
  properties: { name: { type: 'string', minLength: 1, maxLength: 253 } },
  required: ['name'],
});

const readyColumns: PrinterColumn[] = [
  { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
  { name: 'Status', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].reason' },
];
const ageColumn: PrinterColumn = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' };

/** Applies `edit` to an object schema, or to every branch of a union of objects. */
function eachBranch(schema: JsonSchema, edit: (s: JsonSchema) => JsonSchema): JsonSchema {
  const union = schema.oneOf ?? schema.anyOf;
  if (!union) return edit(schema);
  const key = schema.oneOf ? 'oneOf' : 'anyOf';
  return { ...schema, [key]: union.map((b) => (b.type === 'null' ? b : edit(b))) };
}

/** The tenant comes from the namespace and the display name defaults to metadata.name. */
function commonShape(schema: JsonSchema): JsonSchema {
  const { tenant_id: _t, ...properties } = schema.properties ?? {};
  const name = properties.name ? { ...properties.name, description: 'Display name; metadata.name when absent.' } : undefined;
  return {
    ...schema,
    properties: { ...properties, ...(name ? { name } : {}) },
    required: (schema.required ?? []).filter((r) => r !== 'name' && r !== 'tenant_id'),
  };
}

/** Replaces secret fields by `<field>_secret_ref` (required where the secret was). */
export function replaceSecrets(schema: JsonSchema, fields: readonly string[]): JsonSchema {
  return eachBranch(schema, (branch) => {
    const properties = { ...(branch.properties ?? {}) };
    let required = branch.required ?? [];
    for (const field of fields) {
      if (!(field in properties)) continue;
      delete properties[field];
      properties[secretRefField(field)] = SECRET_KEY_REF;
      required = required.map((r) => (r === field ? secretRefField(field) : r));
    }
    return { ...branch, properties, ...(required.length ? { required } : {}) };
  });
}

function editProperty(schema: JsonSchema, key: string, edit: (s: JsonSchema) => JsonSchema): JsonSchema {
  return eachBranch(schema, (branch) => {
    const property = branch.properties?.[key];
    return property ? { ...branch, properties: { ...branch.properties, [key]: edit(property) } } : branch;
  });
}

// The secret fields come from the models' marks (core/src/model/secret.ts).
export { KAFKA_SECRET_FIELDS };

export const KINDS: readonly KindDefinition[] = [
  {
    kind: 'Provider',
    plural: 'providers',
    singular: 'provider',
    shortNames: ['llmprovider'],
    description: 'An LLM backend of the Palisade gateway: how requests are matched to it and how its JSON is read.',
    model: ProviderSpec,
    secretFields: { upstream_auth: UPSTREAM_AUTH_SECRET_FIELDS },
    shape: (schema) => editProperty(commonShape(schema), 'upstream_auth', (auth) => replaceSecrets(auth, UPSTREAM_AUTH_SECRET_FIELDS)),
    rules: [
      { rule: 'has(self.mappingPreset) || has(self.mappingCustom)', message: 'one of mappingPreset or mappingCustom is required' },
      { rule: "self.matchType != 'url' || self.matchValue.matches('^[/^*]')", message: "a url pattern must start with '/' (glob) or '^' (regular expression)" },
    ],
    columns: [{ name: 'Type', type: 'string', jsonPath: '.spec.providerType' }, ...readyColumns, { name: 'Health', type: 'string', jsonPath: '.status.health.status' }, ageColumn],
  },
  {
    kind: 'SecurityProfile',
    plural: 'securityprofiles',
    singular: 'securityprofile',
    shortNames: ['secprofile'],
    description: 'The checks the Palisade gateway applies to the traffic of one Provider.',
    model: ProfileSpec,
    secretFields: {},
    shape: (schema) => {
      const shaped = commonShape(schema);
      const { provider_id: _p, content_policy_ids: _c, ...properties } = shaped.properties ?? {};
      return {
        ...shaped,
        properties: {
          ...properties,
          provider_ref: nameRef('Provider'),
          content_policy_refs: {
            type: 'array',
            default: [],
            items: nameRef('ContentPolicy'),
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['name'],
          },
        },
        required: [...(shaped.required ?? []).filter((r) => r !== 'provider_id'), 'provider_ref'],
      };
    },
    rules: [],
    columns: [{ name: 'Provider', type: 'string', jsonPath: '.spec.providerRef.name' }, ...readyColumns, ageColumn],
  },
  {
    kind: 'ContentPolicy',
    plural: 'contentpolicies',
    singular: 'contentpolicy',
    shortNames: ['cpolicy'],
    description: 'Keyword/regex block- and allowlists and language restrictions of the Palisade gateway.',
    model: ContentPolicySpec,
    secretFields: {},
    shape: commonShape,
    rules: [
      { rule: "self.type != 'language' || (has(self.languages) && size(self.languages) > 0)", message: 'a language policy needs at least one language' },
      { rule: "self.type == 'language' || (has(self.rules) && size(self.rules) > 0)", message: 'a blocklist or allowlist policy needs at least one rule' },
    ],
    columns: [{ name: 'Type', type: 'string', jsonPath: '.spec.type' }, { name: 'Action', type: 'string', jsonPath: '.spec.action' }, ...readyColumns, ageColumn],
  },
  {
    kind: 'EventExporter',
    plural: 'eventexporters',
    singular: 'eventexporter',
    shortNames: ['exporter'],
    description: 'A destination of Palisade security events (syslog, CEF, webhook, Kafka, JSON-lines file).',
    model: ExporterSpec,
    secretFields: { config: [...KAFKA_SECRET_FIELDS] },
    shape: (schema) =>
      eachBranch(schema, (branch) => {
        const shaped = commonShape(branch);
        return editProperty(shaped, 'config', (config): JsonSchema => {
          const withSecrets = replaceSecrets(config, KAFKA_SECRET_FIELDS);
          if (!withSecrets.properties?.headers) return withSecrets;
          return {
            ...withSecrets,
            properties: {
              ...withSecrets.properties,
              headers: { ...withSecrets.properties.headers, description: 'Header values that are not secret.' },
              headers_from: {
                type: 'array',
                description: 'Header values read from Secrets; they win over headers of the same name.',
                default: [],
                items: {
                  type: 'object',
                  properties: { header: (withSecrets.properties.headers.propertyNames as JsonSchema | undefined) ?? { type: 'string', minLength: 1, maxLength: 256 }, secret_ref: SECRET_KEY_REF },
                  required: ['header', 'secret_ref'],
                },
                'x-kubernetes-list-type': 'map',
                'x-kubernetes-list-map-keys': ['header'],
              },
            },
          };
        });
      }),
    rules: [
      { rule: "self.fieldMapping != 'custom' || (has(self.customMapping) && size(self.customMapping) > 0)", message: 'customMapping is required when fieldMapping is custom' },
      {
        rule: "self.type != 'syslog' || !has(self.config.tlsInsecure) || !self.config.tlsInsecure || (has(self.config.transport) && self.config.transport == 'tcp+tls')",
        message: 'tlsInsecure is only allowed with transport tcp+tls',
      },
      {
        rule: "self.type != 'kafka' || !has(self.config.saslMechanism) || self.config.saslMechanism == 'none' || has(self.config.saslUsername)",
        message: 'saslUsername is required when saslMechanism is set',
      },
    ],
    columns: [{ name: 'Type', type: 'string', jsonPath: '.spec.type' }, { name: 'Enabled', type: 'boolean', jsonPath: '.spec.enabled' }, ...readyColumns, ageColumn],
  },
];

export function kindDefinition(kind: KindName): KindDefinition {
  return KINDS.find((k) => k.kind === kind)!;
}
