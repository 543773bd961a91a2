// An exporter's `config`, one shape per exporter type (the spec's "Exporter types" tables): syslog,
// CEF, webhook, Kafka and JSON-lines file. The exporter record (exporter.ts) is a union over them.
import { z } from 'zod';
import { HeaderName, Host, HostPort, HttpUrl, PALISADE_VERSION, Port } from './common.js';
import { secret, secretKeysOf } from './secret.js';

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
