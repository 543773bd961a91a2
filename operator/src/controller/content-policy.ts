// ContentPolicy: keyword/regex block- and allowlists and language restrictions. Plain spec, served in
// the policy bundle; security profiles refer to it by name.
import { ContentPolicyCreate } from '@palisade/core';
import type { KindReconciler } from './kind-reconciler.js';
import { specFields, validated } from './spec-input.js';

export const contentPolicyReconciler: KindReconciler = {
  kind: 'ContentPolicy',
  inPolicyBundle: true,
  referencedBy: ['SecurityProfile'],
  readsSecrets: false,
  recordInput: async (resource) => validated(ContentPolicyCreate, specFields('ContentPolicy', resource)),
};
