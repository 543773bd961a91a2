/**
 * How an event payload becomes stream fields and back, shared by both implementations so an entry
 * reads back the same whichever backend stored it.
 *
 * A flat object of strings is stored as plain fields (readable with redis-cli, and what other Redis
 * Streams tools expect); any other JSON value goes into the single reserved field `$json`. Since a flat
 * string object means the same thing either way, every payload reads back deep-equal to what was appended.
 */
import { StreamsError, type EventPayload } from './types.js';

export type Fields = Record<string, string>;

/** The reserved field holding a JSON-encoded payload. */
export const JSON_FIELD = '$json';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export function encodePayload(payload: unknown): Fields {
  if (isPlainObject(payload)) {
    const entries = Object.entries(payload);
    if (entries.length > 0 && !(JSON_FIELD in payload) && entries.every(([, v]) => typeof v === 'string')) {
      return { ...(payload as Fields) };
    }
  }
  let json: string | undefined;
  try {
    json = JSON.stringify(payload);
  } catch (err) {
    throw new StreamsError('INVALID', `stream payload is not JSON-serialisable: ${(err as Error).message}`, { cause: err });
  }
  if (json === undefined) throw new StreamsError('INVALID', 'stream payload is not JSON-serialisable (undefined or a function)');
  return { [JSON_FIELD]: json };
}

export function decodePayload(fields: Fields): EventPayload {
  const keys = Object.keys(fields);
  if (keys.length === 1 && keys[0] === JSON_FIELD) return JSON.parse(fields[JSON_FIELD] as string) as EventPayload;
  return fields;
}

/** Redis replies fields as a flat [k1, v1, k2, v2, …] array. */
export function fieldsToArgs(fields: Fields): string[] {
  const args: string[] = [];
  for (const [k, v] of Object.entries(fields)) args.push(k, v);
  return args;
}

export function argsToFields(flat: readonly unknown[]): Fields {
  const fields: Fields = {};
  for (let i = 0; i + 1 < flat.length; i += 2) fields[String(flat[i])] = String(flat[i + 1]);
  return fields;
}
