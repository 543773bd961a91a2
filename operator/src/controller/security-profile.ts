// SecurityProfile: the checks applied to one provider's traffic. It names its Provider and
// ContentPolicies by metadata.name; the record holds their record ids (the resources' uids), so each
// must exist and already be reconciled into the registry.
import { ProfileCreate } from '@palisade/core';
import type { KindReconciler } from './kind-reconciler.js';
import { isObject, specFields, SpecError, validated, type Fields, type Lookups } from './spec-input.js';

/** The record id of a referenced resource; it must exist and be reconciled into the registry. */
async function referencedId(kind: 'Provider' | 'ContentPolicy', namespace: string, name: string, lookups: Lookups, field: string): Promise<string> {
  const target = lookups.resource(kind, namespace, name);
  if (!target || target.metadata.deletionTimestamp) throw new SpecError(`${kind}NotFound`, `${kind} ${namespace}/${name} not found (spec.${field})`);
  const repository = kind === 'Provider' ? lookups.store.providers : lookups.store.contentPolicies;
  if (!(await repository.get(target.metadata.uid))) {
    throw new SpecError(`${kind}NotReady`, `${kind} ${namespace}/${name} is not reconciled into the registry yet (spec.${field})`);
  }
  return target.metadata.uid;
}

export const securityProfileReconciler: KindReconciler = {
  kind: 'SecurityProfile',
  inPolicyBundle: true,
  referencedBy: [],
  readsSecrets: false,
  async recordInput(resource, lookups) {
    const namespace = resource.metadata.namespace;
    const { provider_ref: providerRef, content_policy_refs: policyRefs, ...fields } = specFields('SecurityProfile', resource);
    fields.provider_id = await referencedId('Provider', namespace, isObject(providerRef) ? String(providerRef.name) : '', lookups, 'providerRef');
    const ids: string[] = [];
    for (const ref of Array.isArray(policyRefs) ? (policyRefs as Fields[]) : []) {
      ids.push(await referencedId('ContentPolicy', namespace, String(ref.name), lookups, 'contentPolicyRefs'));
    }
    fields.content_policy_ids = ids;
    return validated(ProfileCreate, fields);
  },
};
