// Exporter: a destination for security events (syslog, CEF, webhook, Kafka, JSON-lines file), with
// filters and a field-mapping profile. The record is a union over `type`, so that each config is checked
// against its own table of the spec (exporter-configs.ts) and issues carry paths like
// ['config', 'max_retries'].
import { z } from 'zod';
import { Description, Name, TenantId, immutable, isPlainObject, recordMeta, updateShape, upperList, withInput } from './common.js';
import { CefConfig, EXPORTER_CONFIG_SCHEMAS, ExporterType, FileConfig, KafkaConfig, SyslogConfig, WebhookConfig } from './exporter-configs.js';
import { EventType, Severity } from './security-event.js';

// --- filters and field mapping ------------------------------------------------------------------

/** OR inside a list, AND between lists; empty lists match everything. */
export const ExporterFilters = z.object({
  severities: z.array(Severity).default([]),
  event_types: z.array(EventType).default([]),
  tenant_ids: z.array(TenantId).default([]),
});
export type ExporterFilters = z.infer<typeof ExporterFilters>;

/** generic: fields as they are; ecs: Elastic Common Schema names; custom: custom_mapping. */
export const FIELD_MAPPING_PROFILES = ['generic', 'ecs', 'custom'] as const;
export const FieldMappingProfile = z.enum(FIELD_MAPPING_PROFILES);
export type FieldMappingProfile = z.infer<typeof FieldMappingProfile>;

/** The spec's ECS renames (fields not listed keep their names). */
export const ECS_FIELD_MAPPING: Readonly<Record<string, string>> = {
  trace_id: 'trace.id',
  event_type: 'event.type',
  severity: 'event.severity_name',
  timestamp: '@timestamp',
  source_ip: 'source.ip',
  profile_id: 'labels.profile_id',
};

type FilterLists = { severities?: readonly string[]; event_types?: readonly string[]; tenant_ids?: readonly string[] };

/** Whether an event passes an exporter's filters; comparisons ignore case. */
export function matchesFilters(
  event: { severity: string; event_type: string; tenant_id: string },
  filters: FilterLists | undefined,
): boolean {
  const hit = (list: readonly string[] | undefined, value: string) =>
    !list || list.length === 0 || list.some((v) => v.toLowerCase() === value.toLowerCase());
  return (
    hit(filters?.severities, event.severity) &&
    hit(filters?.event_types, event.event_type) &&
    hit(filters?.tenant_ids, event.tenant_id)
  );
}

// --- the exporter record ------------------------------------------------------------------------

const commonShape = {
  name: Name,
  description: Description.default(''),
  /** Created enabled; toggling stops or resumes sending and keeps the configuration. */
  enabled: z.boolean().default(true),
  filters: ExporterFilters.prefault({}),
  field_mapping: FieldMappingProfile.default('generic'),
  /** For field_mapping custom: {source_field: target_field}. */
  custom_mapping: z.record(z.string().min(1), z.string().min(1).max(255)).default({}),
  tenant_id: TenantId.optional(),
};

const member = <T extends ExporterType, C extends z.ZodObject>(type: T, config: C) =>
  z.object({ ...commonShape, type: z.literal(type), config });

export const SyslogExporterSpec = member('syslog', SyslogConfig);
export const CefExporterSpec = member('cef', CefConfig);
export const WebhookExporterSpec = member('webhook', WebhookConfig);
export const KafkaExporterSpec = member('kafka', KafkaConfig);
export const FileExporterSpec = member('file', FileConfig);

/** The writable fields of an exporter (create body and CRD spec). */
export const ExporterSpec = z.discriminatedUnion('type', [
  SyslogExporterSpec,
  CefExporterSpec,
  WebhookExporterSpec,
  KafkaExporterSpec,
  FileExporterSpec,
]);
export type ExporterSpec = z.infer<typeof ExporterSpec>;

/** Fields fixed at creation. */
export const EXPORTER_IMMUTABLE_FIELDS = ['type'] as const;

/** Lower/upper-cases enum spellings: type, filter severities and event types, HTTP method, SASL. */
export function normaliseExporterInput(body: Record<string, unknown>): Record<string, unknown> {
  if (typeof body.type === 'string') body.type = body.type.toLowerCase();
  if (isPlainObject(body.filters)) {
    body.filters = {
      ...body.filters,
      severities: upperList(body.filters.severities),
      event_types: upperList(body.filters.event_types),
    };
  }
  if (isPlainObject(body.config)) {
    const config = { ...body.config };
    if (typeof config.method === 'string') config.method = config.method.toUpperCase();
    if (typeof config.sasl_mechanism === 'string') {
      const upper = config.sasl_mechanism.toUpperCase();
      config.sasl_mechanism = upper === 'NONE' ? 'none' : upper;
    }
    body.config = config;
  }
  return body;
}

/**
 * Rules between config fields of one type; paths are prefixed with 'config'. On a partial config
 * (update) a rule is checked only when the fields it relates are all present.
 */
function checkConfig(
  type: string | undefined,
  config: Record<string, unknown> | undefined,
  ctx: z.RefinementCtx,
  partial = false,
) {
  if (!config) return;
  const tlsKnown = !partial || 'transport' in config;
  if (type === 'syslog' && config.tls_insecure === true && tlsKnown && config.transport !== 'tcp+tls') {
    ctx.addIssue({
      code: 'custom',
      path: ['config', 'tls_insecure'],
      message: 'tls_insecure is only allowed with transport tcp+tls',
    });
  }
  // The stored record may hold the username, so a partial config cannot tell.
  const needsUser = type === 'kafka' && !partial && config.sasl_mechanism && config.sasl_mechanism !== 'none';
  if (needsUser && !config.sasl_username) {
    ctx.addIssue({
      code: 'custom',
      path: ['config', 'sasl_username'],
      message: 'sasl_username is required when sasl_mechanism is set',
    });
  }
}

function checkExporter(value: ExporterSpec, ctx: z.RefinementCtx) {
  checkConfig(value.type, value.config as Record<string, unknown>, ctx);
  if (value.field_mapping === 'custom' && Object.keys(value.custom_mapping).length === 0) {
    ctx.addIssue({
      code: 'custom',
      path: ['custom_mapping'],
      message: 'custom_mapping is required when field_mapping is custom',
    });
  }
}

export const ExporterCreate = withInput(normaliseExporterInput, ExporterSpec.superRefine(checkExporter));
export type ExporterCreate = z.output<typeof ExporterCreate>;

const commonUpdate = { ...updateShape(commonShape), type: immutable('type') };

/**
 * Partial update without knowing the stored type: `config` is a partial object checked after merging
 * with the stored record (parse the merge with ExporterCreate), or use exporterUpdateSchema(type).
 */
export const ExporterUpdate = withInput(
  normaliseExporterInput,
  z.object({ ...commonUpdate, config: z.record(z.string(), z.unknown()).optional() }),
);
export type ExporterUpdate = z.output<typeof ExporterUpdate>;

/** Partial update of an exporter of a known type: config fields are checked, none is reset. */
export function exporterUpdateSchema(type: ExporterType) {
  const configShape = EXPORTER_CONFIG_SCHEMAS[type].shape as z.ZodRawShape;
  return withInput(
    normaliseExporterInput,
    z
      .object({ ...commonUpdate, config: z.object(updateShape(configShape)).optional() })
      .superRefine((value, ctx) => checkConfig(type, value.config as Record<string, unknown> | undefined, ctx, true)),
  );
}

const recordShape = { ...recordMeta };

/** The stored exporter. */
export const Exporter = z.discriminatedUnion('type', [
  SyslogExporterSpec.extend(recordShape),
  CefExporterSpec.extend(recordShape),
  WebhookExporterSpec.extend(recordShape),
  KafkaExporterSpec.extend(recordShape),
  FileExporterSpec.extend(recordShape),
]);
export type Exporter = z.infer<typeof Exporter>;
