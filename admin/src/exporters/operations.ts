// Exporter records through the Admin API: create, list, read, partial update (toggling `enabled`
// included), delete and a test send. Secrets are sealed at rest and masked in answers (secrets.ts);
// records reconciled by the Kubernetes operator are read-only here (409).
import { randomUUID } from 'node:crypto';
import {
  EXPORTER_IMMUTABLE_FIELDS,
  ExporterCreate,
  ExporterUpdate,
  PalisadeError,
  exporterUpdateSchema,
  normaliseExporterInput,
  omitUnchanged,
  type Exporter,
  type ExporterType,
  type Page,
  type ResourceStore,
  type SecretBox,
} from '@palisade/core';
import { maskExporter, openExporter, sealExporterConfig } from './secrets.js';

/** Sends one test event to an exporter's destination (secrets in clear); rejects with the cause. */
/** Throws when the caller may not act on a record of `tenantId` (the Admin API's tenantFor). */
export type AuthorizeTenant = (tenantId: string) => void;

export type TestExporterCall = (exporter: Exporter) => Promise<{ status: 'ok' }>;

export interface ExporterOperationsDeps {
  store: ResourceStore;
  secrets: SecretBox;
  now: () => Date;
  testExporter?: TestExporterCall | undefined;
}

export interface ExporterListFilter {
  /** undefined = every tenant (super-admin). */
  tenantIds: string[] | undefined;
  enabled?: boolean | undefined;
  type?: ExporterType | undefined;
  limit: number;
  offset: number;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

function defined<T extends object>(value: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(value ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export function createExporterOperations(deps: ExporterOperationsDeps) {
  const { exporters } = deps.store;
  const stamp = () => deps.now().toISOString();

  /** The record, after `authorize` accepted its tenant (rule 3: another tenant is 403 unless super-admin). */
  async function load(id: string, authorize: AuthorizeTenant): Promise<Exporter> {
    const exporter = await exporters.get(id);
    if (!exporter) throw new PalisadeError('NOT_FOUND', { message: { en: `exporter ${id} not found`, ru: `экспортёр ${id} не найден` } });
    authorize(exporter.tenant_id);
    return exporter;
  }

  function refuseOperatorManaged(exporter: Exporter) {
    if (exporter.managed_by === 'operator') {
      throw new PalisadeError('CONFLICT', { message: { en: 'this exporter is managed by the Kubernetes operator; change its EventExporter resource instead', ru: 'этим экспортёром управляет оператор Kubernetes; измените его ресурс EventExporter' } });
    }
  }

  return {
    async create(body: unknown, tenantId: string): Promise<Exporter> {
      const input = ExporterCreate.parse(body);
      const at = stamp();
      const record = {
        ...input,
        config: sealExporterConfig(input.type, input.config, deps.secrets),
        id: randomUUID(),
        tenant_id: tenantId,
        managed_by: 'api',
        created_at: at,
        updated_at: at,
      } as Exporter;
      await exporters.insert(record);
      return maskExporter(record);
    },

    async list(filter: ExporterListFilter): Promise<Page<Exporter>> {
      const page = await exporters.list({
        where: { tenant_id: filter.tenantIds, enabled: filter.enabled, type: filter.type },
        limit: filter.limit,
        offset: filter.offset,
      });
      return { ...page, items: page.items.map(maskExporter) };
    },

    async get(id: string, authorize: AuthorizeTenant): Promise<Exporter> {
      return maskExporter(await load(id, authorize));
    },

    async update(id: string, body: unknown, authorize: AuthorizeTenant): Promise<Exporter> {
      const stored = await load(id, authorize);
      if (!isPlainObject(body)) ExporterUpdate.parse(body); // throws the validation error of a non-object body
      // Resending the stored type (a form that PUTs the whole record) is not a change of it.
      const raw = omitUnchanged(normaliseExporterInput({ ...(body as Record<string, unknown>) }), stored, [...EXPORTER_IMMUTABLE_FIELDS, 'tenant_id']);
      if (raw.tenant_id !== undefined) {
        throw new PalisadeError('VALIDATION_ERROR', {
          message: 'Invalid tenant_id: an exporter cannot move to another tenant',
          details: [{ path: 'tenant_id', message: 'tenant_id cannot be changed after creation' }],
        });
      }
      const patch = exporterUpdateSchema(stored.type).parse(raw);
      const updated = await exporters.update(id, (current) => {
        refuseOperatorManaged(current);
        const shown = maskExporter(current);
        const merged = {
          ...shown,
          ...defined(patch),
          // A partial config or filters object changes only the fields it names.
          config: { ...shown.config, ...defined(patch.config) },
          filters: { ...shown.filters, ...defined(patch.filters) },
        };
        // The merged record must satisfy every create rule (sasl_username with SASL, custom_mapping…).
        const checked = ExporterCreate.parse(merged);
        return {
          ...checked,
          config: sealExporterConfig(checked.type, checked.config, deps.secrets, current.config),
          id: current.id,
          tenant_id: current.tenant_id,
          managed_by: current.managed_by,
          created_at: current.created_at,
          updated_at: stamp(),
        } as Exporter;
      });
      if (!updated) throw new PalisadeError('NOT_FOUND', { message: { en: `exporter ${id} not found`, ru: `экспортёр ${id} не найден` } });
      return maskExporter(updated);
    },

    async remove(id: string, authorize: AuthorizeTenant): Promise<void> {
      refuseOperatorManaged(await load(id, authorize));
      await exporters.delete(id);
    },

    /** Sends one test event; a failure is a 500 carrying the destination's cause. */
    async test(id: string, authorize: AuthorizeTenant): Promise<{ status: 'ok' }> {
      const exporter = await load(id, authorize);
      if (!deps.testExporter) {
        throw new PalisadeError('NOT_IMPLEMENTED', { message: 'exporter tests are not available: this Admin API runs without an exporter tester' });
      }
      try {
        await deps.testExporter(openExporter(exporter, deps.secrets));
        return { status: 'ok' };
      } catch (cause) {
        const reason = cause instanceof Error ? cause.message : String(cause);
        throw new PalisadeError('INTERNAL_ERROR', { message: `test event to exporter ${exporter.name} failed: ${reason}`, cause });
      }
    },
  };
}

export type ExporterOperations = ReturnType<typeof createExporterOperations>;
