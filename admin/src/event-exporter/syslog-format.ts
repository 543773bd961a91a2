// Syslog lines: RFC 5424 and RFC 3164 messages and RFC 6587 octet-counting framing for TCP. Written
// by hand: the syslog packages on npm either stop at RFC 3164, lack octet counting and TLS, or are
// unmaintained, and the format itself is a few lines.
import type { SecurityEvent, Severity, SyslogConfig } from '@palisade/core';
import type { MappedEvent } from './mapping.js';

/** RFC 5424 severities: CRITICAL → 2 crit, HIGH → 3 err, MEDIUM → 4 warning, LOW → 5 notice, INFO → 6 info. */
export const SYSLOG_SEVERITY: Readonly<Record<Severity, number>> = { CRITICAL: 2, HIGH: 3, MEDIUM: 4, LOW: 5, INFO: 6 };

/** IANA's example enterprise number (RFC 5612), for the structured-data id until Palisade has its own. */
export const SD_ID = 'palisade@32473';

const BOM = '\uFEFF';

export interface SyslogOrigin {
  /** HOSTNAME field (the exporter host's name). */
  hostname: string;
  /** PROCID field (the exporter process id). */
  procId: string;
}

export const priority = (facility: number, severity: Severity): number => facility * 8 + SYSLOG_SEVERITY[severity];

/** A header field: printable US-ASCII without spaces, at most `max` characters; "-" when empty. */
function headerField(value: string, max: number): string {
  const clean = value.replace(/[^!-~]/g, '').slice(0, max);
  return clean === '' ? '-' : clean;
}

/** RFC 5424 §6.3.3: `"`, `\` and `]` are escaped in PARAM-VALUE. */
const sdValue = (value: string): string => value.replace(/["\\\]]/g, (c) => `\\${c}`);

/**
 * `<PRI>1 TIMESTAMP HOSTNAME APP-NAME PROCID MSGID [palisade@32473 …] BOM{json}`: MSGID is the event
 * type, the structured data carries the fields a SIEM indexes first, MSG the mapped event as JSON.
 */
export function formatRfc5424(event: SecurityEvent, mapped: MappedEvent, config: Pick<SyslogConfig, 'facility' | 'app_name'>, origin: SyslogOrigin): string {
  const params = [
    ['event_id', event.id],
    ['trace_id', event.trace_id],
    ['tenant_id', event.tenant_id],
    ['severity', event.severity],
  ]
    .map(([k, v]) => `${k}="${sdValue(v!)}"`)
    .join(' ');
  const header = [
    `<${priority(config.facility, event.severity)}>1`,
    new Date(event.timestamp).toISOString(),
    headerField(origin.hostname, 255),
    headerField(config.app_name, 48),
    headerField(origin.procId, 128),
    headerField(event.event_type, 32),
  ].join(' ');
  return `${header} [${SD_ID} ${params}] ${BOM}${JSON.stringify(mapped)}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** RFC 3164 TIMESTAMP `Mmm dd hh:mm:ss` (day padded with a space), in UTC: the event time, not the sender's zone. */
export function rfc3164Timestamp(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, ' ')} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** `<PRI>Mmm dd hh:mm:ss HOSTNAME TAG[PROCID]: {json}`; TAG is app_name cut to 32 alphanumerics and `-_.`. */
export function formatRfc3164(event: SecurityEvent, mapped: MappedEvent, config: Pick<SyslogConfig, 'facility' | 'app_name'>, origin: SyslogOrigin): string {
  const tag = config.app_name.replace(/[^A-Za-z0-9_.-]/g, '').slice(0, 32) || 'palisade';
  const host = headerField(origin.hostname, 255);
  return `<${priority(config.facility, event.severity)}>${rfc3164Timestamp(event.timestamp)} ${host} ${tag}[${headerField(origin.procId, 16)}]: ${JSON.stringify(mapped)}`;
}

export function formatSyslog(event: SecurityEvent, mapped: MappedEvent, config: Pick<SyslogConfig, 'facility' | 'app_name' | 'format'>, origin: SyslogOrigin): string {
  return config.format === 'rfc3164' ? formatRfc3164(event, mapped, config, origin) : formatRfc5424(event, mapped, config, origin);
}

/** RFC 6587 §3.4.1 octet counting: `MSG-LEN SP SYSLOG-MSG`, the length in bytes. */
export function octetCounted(message: string): Buffer {
  const body = Buffer.from(message, 'utf8');
  return Buffer.concat([Buffer.from(`${body.length} `, 'ascii'), body]);
}
