// The steps every kind shares once the loop hands over one resource: record input from the spec (the
// kind's reconciler) → upsert into the registry database → publish the policy bundle → status. Two
// conditions tell the steps apart: `Reconciled` = this generation is written into the registry database;
// `Ready` = it is live, i.e. served in a published policy bundle revision (for exporters, which their
// worker reads from the database, live once written). Finalizing removes the record.
import { isDeepStrictEqual } from 'node:util';
import type { Logger } from 'pino';
import type { BundlePublisher } from '@palisade/core';
import { FINALIZER, type KindName } from '../crd/kinds.js';
import { statusCodeOf, type CustomResource, type KubeClient } from '../kube/client.js';
import { setCondition, type Condition } from './conditions.js';
import type { KindReconciler } from './kind-reconciler.js';
import type { RecordWriter } from './records.js';
import { SpecError, type Fields, type Lookups } from './spec-input.js';
import { redactStatus, secretsOfSpec } from './status-redaction.js';

export interface ResourceReconcilerDeps {
  kube: KubeClient;
  writer: RecordWriter;
  publisher: BundlePublisher;
  lookups: Lookups;
  now: () => Date;
  log?: Pick<Logger, 'info' | 'warn'> | undefined;
  /** Enqueues every resource of these kinds in the namespace. */
  requeue(kinds: readonly KindName[], namespace: string): void;
}

interface Outcome {
  ok: boolean;
  reason: string;
  message: string;
}

const generationOf = (resource: CustomResource) => resource.metadata.generation ?? 0;
const conditionsOf = (resource: CustomResource) => (resource.status?.conditions as Condition[] | undefined) ?? [];

export function createResourceReconciler(deps: ResourceReconcilerDeps) {
  const { kube, writer, publisher, lookups, log } = deps;

  function conditions(resource: CustomResource, reconciled: Outcome, ready: Outcome): Condition[] {
    const observedGeneration = generationOf(resource);
    const at = deps.now();
    const condition = (type: string, outcome: Outcome) => ({ type, status: outcome.ok ? ('True' as const) : ('False' as const), observedGeneration, reason: outcome.reason, message: outcome.message });
    return setCondition(setCondition(conditionsOf(resource), condition('Ready', ready), at), condition('Reconciled', reconciled), at);
  }

  /** Merge-patches the status when it changes; no secret of the resolved spec gets into it. */
  async function writeStatus(kind: KindName, resource: CustomResource, status: Fields, secrets: readonly string[]) {
    const redacted = redactStatus(status, secrets);
    const before = resource.status ?? {};
    if (isDeepStrictEqual(before, { ...before, ...redacted })) return;
    try {
      await kube.patchStatus(kind, resource.metadata.namespace, resource.metadata.name, redacted);
    } catch (error) {
      if (statusCodeOf(error) !== 404) throw error; // else deleted meanwhile
    }
  }

  /** Ready already says this generation is in a published revision. */
  const publishedBefore = (resource: CustomResource) =>
    conditionsOf(resource).some((c) => c.type === 'Ready' && c.status === 'True' && c.observedGeneration === generationOf(resource));

  async function refused(reconciler: KindReconciler, resource: CustomResource, tenant: string, failure: Outcome, secrets: readonly string[]) {
    const { namespace, name } = resource.metadata;
    log?.warn({ kind: reconciler.kind, namespace, name, reason: failure.reason }, failure.message);
    await writeStatus(reconciler.kind, resource, { observedGeneration: generationOf(resource), conditions: conditions(resource, failure, failure), tenant }, secrets);
  }

  /** Removes the record of a resource that is gone or being deleted; true when there was one. */
  async function removeRecord(reconciler: KindReconciler, namespace: string, uid: string): Promise<boolean> {
    if (!(await writer.remove(reconciler.kind, uid))) return false;
    if (reconciler.inPolicyBundle) await publisher.syncNow();
    deps.requeue(reconciler.referencedBy, namespace);
    return true;
  }

  return {
    /** Brings the record of a resource (finalizer in place, not being deleted) in line with its spec. */
    async apply(reconciler: KindReconciler, resource: CustomResource, tenant: string): Promise<void> {
      const { kind } = reconciler;
      const { namespace, name, uid } = resource.metadata;
      let input: Fields;
      try {
        input = await reconciler.recordInput(resource, lookups);
      } catch (error) {
        if (!(error instanceof SpecError)) throw error;
        return refused(reconciler, resource, tenant, { ok: false, reason: error.reason, message: error.message }, []);
      }
      const secrets = secretsOfSpec(kind, input);
      let result;
      try {
        result = await writer.upsert(kind, uid, tenant, input);
      } catch (error) {
        if ((error as { code?: unknown }).code !== 'CONFLICT') throw error;
        return refused(reconciler, resource, tenant, { ok: false, reason: 'Conflict', message: (error as Error).message }, secrets);
      }
      const recordId = result.record.id;
      const reconciled: Outcome = { ok: true, reason: 'Reconciled', message: `record ${recordId} is in the registry database` };
      const status: Fields = { observedGeneration: generationOf(resource), recordId, tenant, ...reconciler.statusOf?.(result.record) };
      if (result.changed) {
        log?.info({ kind, namespace, name }, 'record reconciled');
        deps.requeue(reconciler.referencedBy, namespace);
      }
      if (!reconciler.inPolicyBundle) {
        const live: Outcome = { ok: true, reason: 'Reconciled', message: `record ${recordId} is live: its worker reads the registry database` };
        return writeStatus(kind, resource, { ...status, conditions: conditions(resource, reconciled, live) }, secrets);
      }
      let revision: string;
      try {
        revision = !result.changed && publishedBefore(resource) && publisher.revision ? publisher.revision : await publisher.syncNow();
      } catch (error) {
        const pending: Outcome = { ok: false, reason: 'BundlePending', message: `record ${recordId} is written; the policy bundle is not rebuilt yet (retrying)` };
        await writeStatus(kind, resource, { ...status, conditions: conditions(resource, reconciled, pending) }, secrets);
        throw error;
      }
      const live: Outcome = { ok: true, reason: 'Reconciled', message: `record ${recordId} is in the policy bundle` };
      await writeStatus(kind, resource, { ...status, bundleRevision: revision, conditions: conditions(resource, reconciled, live) }, secrets);
    },

    removeRecord,

    /** A resource being deleted: its record goes, then our finalizer, which lets the deletion finish; false when it was not ours. */
    async finalize(reconciler: KindReconciler, resource: CustomResource): Promise<boolean> {
      const { namespace, name, uid, finalizers = [] } = resource.metadata;
      if (!finalizers.includes(FINALIZER)) return false;
      await removeRecord(reconciler, namespace, uid);
      await kube.patchMetadata(reconciler.kind, namespace, name, { finalizers: finalizers.filter((f) => f !== FINALIZER), resourceVersion: resource.metadata.resourceVersion });
      log?.info({ kind: reconciler.kind, namespace, name }, 'record removed');
      return true;
    },
  };
}
export type ResourceReconciler = ReturnType<typeof createResourceReconciler>;
