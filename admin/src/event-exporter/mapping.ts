// What an exporter sends for an event: its fields as stored (generic), renamed to the Elastic Common
// Schema (ecs), or renamed by the exporter's own map (custom). Filters are core's matchesFilters.
import { ECS_FIELD_MAPPING, type Exporter, type SecurityEvent } from '@palisade/core';

export type MappedEvent = Record<string, unknown>;

/** ECS event.category of every Palisade event: they are detections on traffic to an LLM. */
export const ECS_EVENT_CATEGORY = ['intrusion_detection'] as const;

/** Sets `a.b.c` as nested objects, as ECS documents are written. */
function setPath(target: Record<string, unknown>, dotted: string, value: unknown): void {
  const keys = dotted.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys[keys.length - 1]!] = value;
}

/**
 * The spec's ECS renames as nested objects (`trace.id` is `{"trace": {"id": …}}`), plus `event.kind`
 * "alert" and `event.category` ["intrusion_detection"]; the other fields keep their names.
 */
export function toEcs(event: SecurityEvent): MappedEvent {
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(event)) {
    const target = ECS_FIELD_MAPPING[field];
    if (target) setPath(out, target, value);
    else out[field] = value;
  }
  setPath(out, 'event.kind', 'alert');
  setPath(out, 'event.category', [...ECS_EVENT_CATEGORY]);
  return out;
}

/** Renames the fields named in `rename` (flat, as written); the other fields keep their names. */
export function toCustom(event: SecurityEvent, rename: Readonly<Record<string, string>>): MappedEvent {
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(event)) out[rename[field] ?? field] = value;
  return out;
}

export function mapEvent(event: SecurityEvent, exporter: Pick<Exporter, 'field_mapping' | 'custom_mapping'>): MappedEvent {
  switch (exporter.field_mapping) {
    case 'ecs':
      return toEcs(event);
    case 'custom':
      return toCustom(event, exporter.custom_mapping);
    default:
      return { ...event };
  }
}
