// The CustomResourceDefinition objects of the four kinds, generated from the core zod models (the same
// schemas the admin API validates with), so a CRD can never drift from the model it feeds.
import { z } from 'zod';
import { HEALTH_STATUSES } from '@palisade/core';
import { GROUP, KINDS, VERSION, kindDefinition, type KindDefinition, type KindName } from './kinds.js';
import { addRules, toStructural, type JsonSchema } from './openapi.js';

/** Lengths the Kubernetes condition convention allows; the operator cuts longer texts to fit. */
export const CONDITION_REASON_MAX_LENGTH = 1024;
export const CONDITION_MESSAGE_MAX_LENGTH = 32768;

const condition: JsonSchema = {
  type: 'object',
  properties: {
    type: { type: 'string', maxLength: 316 },
    status: { type: 'string', enum: ['True', 'False', 'Unknown'] },
    observedGeneration: { type: 'integer', format: 'int64', minimum: 0 },
    lastTransitionTime: { type: 'string', format: 'date-time' },
    reason: { type: 'string', maxLength: CONDITION_REASON_MAX_LENGTH },
    message: { type: 'string', maxLength: CONDITION_MESSAGE_MAX_LENGTH },
  },
  required: ['type', 'status', 'lastTransitionTime', 'reason', 'message'],
};

function statusSchema(kind: KindDefinition): JsonSchema {
  const properties: Record<string, JsonSchema> = {
    observedGeneration: { type: 'integer', format: 'int64', description: 'The metadata.generation the conditions describe.' },
    conditions: { type: 'array', items: condition, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] },
    recordId: { type: 'string', description: 'Id of the registry record (the admin API shows it read-only).' },
    tenant: { type: 'string', description: 'Tenant of the record: the namespace label palisade.io/tenant, else the namespace name.' },
    bundleRevision: { type: 'string', description: 'Policy bundle revision that carries this generation.' },
  };
  if (kind.kind === 'Provider') {
    properties.health = {
      type: 'object',
      description: "The registry's latest health check of the upstream.",
      properties: {
        status: { type: 'string', enum: [...HEALTH_STATUSES] },
        latencyMs: { type: 'integer', nullable: true },
        message: { type: 'string', nullable: true },
        checkedAt: { type: 'string', nullable: true },
      },
    };
  }
  return { type: 'object', properties };
}

const specCache = new Map<KindName, JsonSchema>();

/** The structural OpenAPI schema of a kind's spec (camelCase). */
export function specSchema(kindName: KindName): JsonSchema {
  const cached = specCache.get(kindName);
  if (cached) return cached;
  const kind = kindDefinition(kindName);
  const fromModel = z.toJSONSchema(kind.model, { io: 'input' }) as JsonSchema;
  const spec = addRules(toStructural(kind.shape(fromModel)), kind.rules);
  specCache.set(kindName, spec);
  return spec;
}

export interface CustomResourceDefinitionFile {
  /** `providers.palisade.io.yaml` */
  fileName: string;
  crd: Record<string, unknown>;
}

export function buildCustomResourceDefinitions(): CustomResourceDefinitionFile[] {
  return KINDS.map((kind) => {
    const name = `${kind.plural}.${GROUP}`;
    return {
      fileName: `${name}.yaml`,
      crd: {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name, labels: { 'app.kubernetes.io/part-of': 'palisade' } },
        spec: {
          group: GROUP,
          scope: 'Namespaced',
          names: {
            kind: kind.kind,
            listKind: `${kind.kind}List`,
            plural: kind.plural,
            singular: kind.singular,
            shortNames: kind.shortNames,
            categories: ['palisade'],
          },
          versions: [
            {
              name: VERSION,
              served: true,
              storage: true,
              subresources: { status: {} },
              additionalPrinterColumns: kind.columns,
              schema: {
                openAPIV3Schema: {
                  type: 'object',
                  description: kind.description,
                  properties: {
                    apiVersion: { type: 'string' },
                    kind: { type: 'string' },
                    metadata: { type: 'object' },
                    spec: specSchema(kind.kind),
                    status: statusSchema(kind),
                  },
                  required: ['spec'],
                },
              },
            },
          ],
        },
      },
    };
  });
}
