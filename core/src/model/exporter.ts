// Exporter: a destination for security events (syslog, CEF, webhook, Kafka, JSON-lines file), with
// filters and a field-mapping profile. The record is a union over `type`, so that each config is checked
// against its own table of the spec and issues carry paths like ['config', 'max_retries'].
import { z } from 'zod';
import {
  Description,
  HeaderName,
  Host,
  HostPort,
  HttpUrl,
  Name,
  PALISADE_VERSION,
  Port,
  TenantId,
  immutable,
  isPlainObject,
  recordMeta,
  updateShape,
  upperList,
  withInput,
} from './common.js';
import { secret, secretKeysOf } from './secret.js';
import { EventType, Severity } from './security-event.js';

export const EXPORTER_TYPES = ['syslog', 'cef', 'webhook', 'kafka', 'file'] as const;
export const ExporterType = z.enum(EXPORTER_TYPES);
export type ExporterType = z.infer<typeof ExporterType>;

// --- durations (kafka flush_interval) -------------------------------------------------------------

const DURATION_RE = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/** `500ms`, `1s`, `1.5s`, `5m`, `1h` → milliseconds; throws RangeError for anything else. */
export function parseDurationMs(value: string): number {
  const m = DURATION_RE.exec(value.trim());
  if (!m) throw new RangeError(`invalid duration ${JSON.stringify(value)}; use e.g. 500ms, 1s, 5s, 1m`);
  return Math.round(Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS]);
}

/** A duration of 1 ms to 1 h. */
export const DurationString = z
  .string()
  .regex(DURATION_RE, 'must be a duration such as 500ms, 1s, 5s or 1m')
  .refine((v) => !DURATION_RE.test(v) || (parseDurationMs(v) >= 1 && parseDurationMs(v) <= 3_600_000), {
    message: 'must be between 1ms and 1h',
  });

// --- config per type (the spec's "Exporter types" tables) ---------------------------------------

export const SYSLOG_TRANSPORTS = ['udp', 'tcp', 'tcp+tls'] as const;
export const SYSLOG_FORMATS = ['rfc5424', 'rfc3164'] as const;
export const SyslogConfig = z.object({
  address: HostPort,
  transport: z.enum(SYSLOG_TRANSPORTS).default('tcp'),
  format: z.enum(SYSLOG_FORMATS).default('rfc5424'),
  /** 16-23 = LOCAL0-LOCAL7. */
  facility: z.number().int().min(0).max(23).default(16),
  /** RFC 5424 APP-NAME is at most 48 printable characters. */
  app_name: z.string().min(1).max(48).regex(/^[!-~]+$/, 'must be printable ASCII without spaces').default('palisade'),
  /** Skip certificate verification; only meaningful with tcp+tls. */
  tls_insecure: z.boolean().default(false),
});
export type SyslogConfig = z.infer<typeof SyslogConfig>;

/** Product identity written into CEF headers by default. */
export const CEF_DEVICE_DEFAULTS = {
  device_vendor: 'Palisade',
  device_product: 'Palisade LLM Gateway',
  device_version: PALISADE_VERSION,
} as const;

export const CEF_PROTOCOLS = ['udp', 'tcp'] as const;
export const CefConfig = z.object({
  protocol: z.enum(CEF_PROTOCOLS).default('tcp'),
  host: Host,
  port: Port,
  device_vendor: z.string().min(1).max(255).default(CEF_DEVICE_DEFAULTS.device_vendor),
  device_product: z.string().min(1).max(255).default(CEF_DEVICE_DEFAULTS.device_product),
  device_version: z.string().min(1).max(64).default(CEF_DEVICE_DEFAULTS.device_version),
});
export type CefConfig = z.infer<typeof CefConfig>;

export const WEBHOOK_METHODS = ['POST', 'PUT', 'PATCH'] as const;
export const WebhookConfig = z.object({
  url: HttpUrl,
  method: z.enum(WEBHOOK_METHODS).default('POST'),
  /** Custom headers; every value is a secret (sealed at rest, masked in answers). */
  headers: z.record(HeaderName, secret(z.string().max(8192))).default({}),
  /** false: one POST per event; true: an array of events per POST. */
  batch_mode: z.boolean().default(false),
  timeout_sec: z.number().int().min(1).max(60).default(10),
  /** Retries on 5xx or timeout, with backoff 1 s, 2 s, 4 s … */
  max_retries: z.number().int().min(0).max(10).default(3),
});
export type WebhookConfig = z.infer<typeof WebhookConfig>;

export const KAFKA_COMPRESSIONS = ['snappy', 'gzip', 'lz4', 'zstd', 'none'] as const;
export const SASL_MECHANISMS = ['none', 'PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'] as const;
export const KafkaConfig = z.object({
  brokers: z.array(HostPort).min(1),
  topic: z
    .string()
    .min(1)
    .max(249)
    .regex(/^[A-Za-z0-9._-]+$/, 'must be a Kafka topic name (letters, digits, . _ -)'),
  compression: z.enum(KAFKA_COMPRESSIONS).default('snappy'),
  batch_size: z.number().int().min(1).max(10000).default(100),
  flush_interval: DurationString.default('1s'),
  sasl_mechanism: z.enum(SASL_MECHANISMS).default('none'),
  sasl_username: z.string().min(1).max(1024).optional(),
  sasl_password: secret(z.string().max(8192)).optional(),
  tls_enabled: z.boolean().default(false),
  /** CA bundle path; the system store when absent. */
  tls_ca_file: z.string().min(1).max(4096).optional(),
});
export type KafkaConfig = z.infer<typeof KafkaConfig>;
/** The plain secret fields of a Kafka config (sasl_password), from the model's marks. */
export const KAFKA_SECRET_FIELDS: readonly string[] = secretKeysOf(KafkaConfig);

/** JSON Lines, one event per line. */
export const FileConfig = z.object({
  path: z.string().min(1).max(4096),
  rotate: z.boolean().default(true),
  /** On reaching it the file is renamed with a timestamp suffix and a new one starts. */
  max_size_mb: z.number().int().min(1).max(10000).default(100),
});
export type FileConfig = z.infer<typeof FileConfig>;

export const EXPORTER_CONFIG_SCHEMAS = {
  syslog: SyslogConfig,
  cef: CefConfig,
  webhook: WebhookConfig,
  kafka: KafkaConfig,
  file: FileConfig,
} as const;

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
