// What one kind adds to the shared reconcile loop (controller.ts, reconcile-resource.ts): how its spec
// becomes a record, whether its records are served in the policy bundle, which kinds refer to it, and
// any status of its own. One small file per kind implements it.
import type { KindName } from '../crd/kinds.js';
import type { CustomResource } from '../kube/client.js';
import type { StoredRecord } from './records.js';
import type { Fields, Lookups } from './spec-input.js';

export interface KindReconciler {
  readonly kind: KindName;
  /**
   * Whether the kind's records are served in the policy bundle: then `Ready` waits for a published
   * revision; otherwise its consumer (the event exporter worker) reads the registry database directly.
   */
  readonly inPolicyBundle: boolean;
  /** Kinds whose resources refer to this one by name: reconciled again when this one changes. */
  readonly referencedBy: readonly KindName[];
  /** Whether its records hold values read from Secrets: reconciled again when a Secret changes. */
  readonly readsSecrets: boolean;
  /** The model input of the record (clear secrets, ids resolved), validated; throws SpecError. */
  recordInput(resource: CustomResource, lookups: Lookups): Promise<Fields>;
  /** Status fields of this kind only, from its stored record. */
  statusOf?(record: StoredRecord): Fields;
}
