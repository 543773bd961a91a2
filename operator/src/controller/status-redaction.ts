// A custom resource's status is readable by anyone who may read the resource, so no secret of its
// record may appear there: messages of conflicts and health checks can echo what an upstream or the
// store said, which may quote a credential. The values to hide are those the kind's model marks secret
// (core/src/model/secret.ts), taken from the resolved spec.
import { secretValuesOf } from '@palisade/core';
import type { KindName } from '../crd/kinds.js';
import { modelOf } from './records.js';

const HIDDEN = '***';
/** Shorter values would mask ordinary words; the models' secrets are credentials, far longer. */
const MIN_SECRET_LENGTH = 4;

/** The clear secret values of a resource's resolved spec, longest first (a secret may contain another). */
export function secretsOfSpec(kind: KindName, input: Record<string, unknown>): string[] {
  const values = secretValuesOf(modelOf(kind), input).map((s) => s.value);
  return [...new Set(values)].filter((v) => v.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
}

/** A copy of `status` in which every string has each of `secrets` replaced by ***. */
export function redactStatus<T>(status: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return status;
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return secrets.reduce((text, secret) => text.split(secret).join(HIDDEN), value);
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
    return value;
  };
  return walk(status) as T;
}
