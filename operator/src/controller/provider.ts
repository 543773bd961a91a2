// Provider: an LLM backend. Its upstream credentials come from Secrets, security profiles refer to it
// by name, it is served in the policy bundle, and its status mirrors the registry's health checks.
import { ProviderCreate, UPSTREAM_AUTH_SECRET_FIELDS } from '@palisade/core';
import type { KindReconciler } from './kind-reconciler.js';
import { isObject, resolveSecretRefs, specFields, validated, type Fields } from './spec-input.js';

export const providerReconciler: KindReconciler = {
  kind: 'Provider',
  inPolicyBundle: true,
  referencedBy: ['SecurityProfile'],
  readsSecrets: true,
  async recordInput(resource, lookups) {
    const fields = specFields('Provider', resource);
    if (isObject(fields.upstream_auth)) {
      const auth: Fields = { ...fields.upstream_auth };
      resolveSecretRefs(auth, UPSTREAM_AUTH_SECRET_FIELDS, resource.metadata.namespace, lookups, 'upstreamAuth');
      fields.upstream_auth = auth;
    }
    return validated(ProviderCreate, fields);
  },
  statusOf(record) {
    return {
      health: {
        status: record.health_status,
        latencyMs: record.health_latency_ms ?? null,
        message: record.health_error_message ?? null,
        checkedAt: record.health_checked_at ?? null,
      },
    };
  },
};
