// Writes the operator's records into the registry tables: id = the custom resource's metadata.uid,
// managed_by "operator" (the admin API answers 409 to changes), status ACTIVE (a resource in the
// cluster is live configuration), secrets sealed with the SecretBox like the registry does. A record
// already equal to the desired one (secrets compared in clear) is left alone, so a resync rewrites
// only what drifted.
import { isDeepStrictEqual } from 'node:util';
import {
  ContentPolicy,
  Exporter,
  Profile,
  Provider,
  mapSecretValues,
  type ResourceStore,
  type SecretBox,
} from '@palisade/core';
import type { KindName } from '../crd/kinds.js';

type Fields = Record<string, unknown>;
export type StoredRecord = Fields & { id: string; created_at: string; updated_at: string };

const MODELS = { Provider, SecurityProfile: Profile, ContentPolicy, EventExporter: Exporter } as const;

/** The stored model of a kind's records (it marks the secret fields). */
export const modelOf = (kind: KindName) => MODELS[kind];

/** Fields the registry owns (timestamps, health checks), not the custom resource. */
const NOT_FROM_SPEC = new Set(['created_at', 'updated_at', 'health_status', 'health_latency_ms', 'health_error_message', 'health_checked_at']);

function repositoryOf(store: ResourceStore, kind: KindName) {
  switch (kind) {
    case 'Provider':
      return store.providers as unknown as RecordRepository;
    case 'SecurityProfile':
      return store.profiles as unknown as RecordRepository;
    case 'ContentPolicy':
      return store.contentPolicies as unknown as RecordRepository;
    case 'EventExporter':
      return store.exporters as unknown as RecordRepository;
  }
}

interface RecordRepository {
  get(id: string): Promise<StoredRecord | null>;
  insert(record: StoredRecord): Promise<StoredRecord>;
  update(id: string, change: (current: StoredRecord) => StoredRecord): Promise<StoredRecord | null>;
  delete(id: string): Promise<boolean>;
}

/** Applies `map` to every value the kind's model marks secret (upstream credentials, exporter headers, SASL password). */
function mapSecrets(kind: KindName, record: Fields, map: (value: string) => string): Fields {
  return mapSecretValues(MODELS[kind], record, map) as Fields;
}

const comparable = (record: Fields) => Object.fromEntries(Object.entries(record).filter(([k]) => !NOT_FROM_SPEC.has(k)));

export interface UpsertResult {
  record: StoredRecord;
  changed: boolean;
}

export function createRecordWriter(deps: { store: ResourceStore; secrets: SecretBox; now?: () => Date }) {
  const now = () => (deps.now ?? (() => new Date()))().toISOString();
  return {
    /** Inserts or updates the record of a resource; `input` is the validated model input (clear secrets). */
    async upsert(kind: KindName, id: string, tenantId: string, input: Fields): Promise<UpsertResult> {
      const repo = repositoryOf(deps.store, kind);
      const model = MODELS[kind];
      const at = now();
      const existing = await repo.get(id);
      const desired = model.parse({
        ...(existing ?? {}),
        ...input,
        id,
        tenant_id: tenantId,
        managed_by: 'operator',
        status: 'ACTIVE',
        created_at: existing?.created_at ?? at,
        updated_at: at,
      }) as StoredRecord;
      if (existing) {
        const stored = mapSecrets(kind, existing, (v) => deps.secrets.open(v));
        if (isDeepStrictEqual(comparable(stored), comparable(desired))) return { record: existing, changed: false };
      }
      const sealed = mapSecrets(kind, desired, (v) => deps.secrets.seal(v)) as StoredRecord;
      if (!existing) return { record: await repo.insert(sealed), changed: true };
      // Registry-owned fields (health checks) keep their newest values.
      const updated = await repo.update(id, (current) => ({ ...sealed, ...Object.fromEntries([...NOT_FROM_SPEC].filter((k) => k !== 'updated_at' && k in current).map((k) => [k, current[k]])) }));
      return { record: updated ?? (await repo.insert(sealed)), changed: true };
    },
    async remove(kind: KindName, id: string): Promise<boolean> {
      return repositoryOf(deps.store, kind).delete(id);
    },
  };
}
export type RecordWriter = ReturnType<typeof createRecordWriter>;
