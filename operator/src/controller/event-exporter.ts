// EventExporter: a destination of security events. Kafka's SASL password and webhook headers may come
// from Secrets (`headersFrom` wins over `headers` of the same name). Exporters are not in the policy
// bundle: the exporter worker reads them from the registry database, so a written record is live.
import { ExporterCreate, KAFKA_SECRET_FIELDS } from '@palisade/core';
import type { KindReconciler } from './kind-reconciler.js';
import { isObject, readSecretRef, resolveSecretRefs, specFields, validated, type Fields, type Lookups } from './spec-input.js';

function resolvedConfig(config: Fields, namespace: string, lookups: Lookups): Fields {
  const { headers_from: headersFrom, ...resolved } = config;
  resolveSecretRefs(resolved, KAFKA_SECRET_FIELDS, namespace, lookups, 'config');
  const fromSecrets = Array.isArray(headersFrom) ? (headersFrom as Fields[]) : [];
  if (fromSecrets.length === 0) return resolved;
  const headers: Fields = { ...(isObject(resolved.headers) ? resolved.headers : {}) };
  for (const entry of fromSecrets) {
    const ref = isObject(entry.secret_ref) ? entry.secret_ref : {};
    headers[String(entry.header)] = readSecretRef(ref, namespace, lookups, `config.headersFrom[${String(entry.header)}].secretRef`);
  }
  return { ...resolved, headers };
}

export const eventExporterReconciler: KindReconciler = {
  kind: 'EventExporter',
  inPolicyBundle: false,
  referencedBy: [],
  readsSecrets: true,
  async recordInput(resource, lookups) {
    const fields = specFields('EventExporter', resource);
    if (isObject(fields.config)) fields.config = resolvedConfig(fields.config, resource.metadata.namespace, lookups);
    return validated(ExporterCreate, fields);
  },
};
