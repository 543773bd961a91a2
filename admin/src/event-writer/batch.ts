// What a batch of stream entries becomes before it is stored: the valid security events (validated with
// core's schema, made storable, duplicates removed) and the entries that are not events at all.
import { SecurityEvent, type StreamEntry } from '@palisade/core';

export interface ValidEntry {
  entryId: string;
  event: SecurityEvent;
}

export interface InvalidEntry {
  entryId: string;
  payload: unknown;
  /** Why it was refused, for the dead-letter record. */
  reason: string;
}

export interface ParsedBatch {
  valid: ValidEntry[];
  invalid: InvalidEntry[];
  /** Entries whose event id appeared earlier in the batch: an emitter's retry of an append that had in fact succeeded. */
  duplicates: number;
}

// PostgreSQL refuses U+0000 in text and jsonb, and unpaired surrogates in jsonb. Both arrive in prompts
// (an attacker can send them), and one such event would otherwise fail its whole batch forever.
// (Not /g for test(): a global regex carries lastIndex from one call to the next; replace() resets it.)
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, 'g');

/** The value with unstorable characters replaced; the same reference when there were none (the usual case). */
function storableValue(value: unknown): unknown {
  if (typeof value === 'string') return UNSTORABLE.test(value) ? value.replace(UNSTORABLE_ALL, '\uFFFD') : value;
  if (value === null || typeof value !== 'object') return value;
  let changed = false;
  const pairs = Object.entries(value).map(([k, v]) => {
    const next = storableValue(v);
    if (next !== v) changed = true;
    return [k, next] as const;
  });
  if (!changed) return value;
  return Array.isArray(value) ? pairs.map(([, v]) => v) : Object.fromEntries(pairs);
}

/** The event with every character PostgreSQL cannot store replaced by U+FFFD. */
export function storable(event: SecurityEvent): SecurityEvent {
  return storableValue(event) as SecurityEvent;
}

function describe(error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> }): string {
  const shown = error.issues.slice(0, 5).map((i) => `${i.path.map(String).join('.') || '(payload)'}: ${i.message}`);
  const more = error.issues.length - shown.length;
  return `not a security event: ${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}

export function parseBatch(entries: readonly StreamEntry[]): ParsedBatch {
  const valid: ValidEntry[] = [];
  const invalid: InvalidEntry[] = [];
  const seen = new Set<string>();
  let duplicates = 0;
  for (const entry of entries) {
    const parsed = SecurityEvent.safeParse(entry.payload);
    if (!parsed.success) {
      invalid.push({ entryId: entry.id, payload: entry.payload, reason: describe(parsed.error) });
      continue;
    }
    if (seen.has(parsed.data.id)) {
      duplicates++;
      continue;
    }
    seen.add(parsed.data.id);
    valid.push({ entryId: entry.id, event: storable(parsed.data) });
  }
  return { valid, invalid, duplicates };
}
