// ArcSight CEF lines (`CEF:0|vendor|product|version|signature|name|severity|extension`) with the
// escaping of the CEF specification. Written by hand: no maintained npm package formats CEF.
import { CEF_SEVERITY, type CefConfig, type SecurityEvent } from '@palisade/core';

/** Header fields: `\` and `|` are escaped; a line break would end the record, so it becomes a space. */
export const escapeCefHeader = (value: string): string => value.replace(/[\\|]/g, (c) => `\\${c}`).replace(/\r\n|\r|\n/g, ' ');

/** Extension values: `\` and `=` are escaped, line breaks are written as `\n` / `\r`. */
export const escapeCefExtension = (value: string): string =>
  value.replace(/[\\=]/g, (c) => `\\${c}`).replace(/\r/g, '\\r').replace(/\n/g, '\\n');

/** REQUEST_BLOCKED → "Request blocked". */
export const cefEventName = (eventType: string): string => {
  const words = eventType.toLowerCase().split('_');
  return [words[0]!.charAt(0).toUpperCase() + words[0]!.slice(1), ...words.slice(1)].join(' ').replace(/\bpii\b/, 'PII');
};

/**
 * The extension, in the CEF dictionary's keys (a SIEM's CEF parser knows them; the field mapping profile
 * does not apply): rt (epoch ms), externalId, src, act, outcome, msg, and custom strings / a float with their labels.
 */
export function cefExtension(event: SecurityEvent): Array<[string, string]> {
  const pairs: Array<[string, string | number | null | undefined]> = [
    ['rt', Date.parse(event.timestamp)],
    ['externalId', event.id],
    ['src', event.source_ip],
    ['act', event.action],
    ['outcome', event.decision],
    ['msg', event.reasons.length > 0 ? event.reasons.join('; ') : undefined],
    ['cs1Label', 'trace_id'],
    ['cs1', event.trace_id],
    ['cs2Label', 'tenant_id'],
    ['cs2', event.tenant_id],
    ['cs3Label', 'profile_id'],
    ['cs3', event.profile_id],
    ['cs4Label', 'provider'],
    ['cs4', event.provider_name],
    ['cs5Label', 'model'],
    ['cs5', event.model],
    ['cs6Label', 'pii_types'],
    ['cs6', event.pii_entities.length > 0 ? [...new Set(event.pii_entities.map((p) => p.type))].join(',') : undefined],
    ['cfp1Label', 'jailbreak_score'],
    ['cfp1', event.jailbreak_score],
  ];
  const present: Array<[string, string]> = [];
  for (let i = 0; i < pairs.length; i++) {
    const [key, value] = pairs[i]!;
    if (key.endsWith('Label')) {
      // A label without its value is noise: keep the pair only when the value that follows is present.
      const next = pairs[i + 1]![1];
      if (next === null || next === undefined) i++;
      else present.push([key, String(value)]);
      continue;
    }
    if (value !== null && value !== undefined) present.push([key, String(value)]);
  }
  return present;
}

export function formatCef(event: SecurityEvent, config: Pick<CefConfig, 'device_vendor' | 'device_product' | 'device_version'>): string {
  const header = [
    'CEF:0',
    escapeCefHeader(config.device_vendor),
    escapeCefHeader(config.device_product),
    escapeCefHeader(config.device_version),
    escapeCefHeader(event.event_type),
    escapeCefHeader(cefEventName(event.event_type)),
    String(CEF_SEVERITY[event.severity]),
  ].join('|');
  const extension = cefExtension(event)
    .map(([k, v]) => `${k}=${escapeCefExtension(v)}`)
    .join(' ');
  return `${header}|${extension}`;
}
