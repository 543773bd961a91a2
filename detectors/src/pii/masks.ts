// Rewriting a text given its PII entities, for the gateway pipeline (which calls this on the original
// text at each mapped JSON pointer):
//  - `mask`: each entity becomes its type's placeholder ("[EMAIL]", "[PHONE]"; the profile's mask mode);
//  - `redact`: each entity is removed, nothing put in its place (the profile's redact mode);
//  - `partial`: each entity becomes the spec's SANITIZE mask ("i***@example.com", "**** **** **** 1111").
// Trusted entities are left as they are. Offsets refer to the original text (as if applied right to
// left); overlapping entities keep the first (by start, then the longer).
import type { PiiType } from '@palisade/core';
import { piiRuleFor } from './rules.js';

export type PiiActionMode = 'mask' | 'redact' | 'partial';
export const PII_ACTION_MODES: readonly PiiActionMode[] = ['mask', 'redact', 'partial'];

/** Placeholders of mask mode. The spec names [EMAIL] and [PHONE]; the rest follow the type names. */
export const PII_PLACEHOLDERS: Readonly<Record<PiiType, string>> = {
  CREDIT_CARD: '[CREDIT_CARD]',
  INN: '[INN]',
  SNILS: '[SNILS]',
  PHONE_NUMBER: '[PHONE]',
  EMAIL: '[EMAIL]',
  PASSPORT_RF: '[PASSPORT]',
  API_KEY: '[API_KEY]',
  GITHUB_TOKEN: '[GITHUB_TOKEN]',
  JWT: '[JWT]',
  DATABASE_URL: '[DATABASE_URL]',
  PRIVATE_KEY: '[PRIVATE_KEY]',
  SYSTEM_PROMPT_LEAK: '[SYSTEM_PROMPT]',
};

/** The spec's SANITIZE mask of one value of a type. */
export function maskPiiValue(type: PiiType, value: string): string {
  return piiRuleFor(type).mask(value);
}

/** The span of an entity the rewrite needs; detector entities fit. */
export interface PiiSpan {
  type: PiiType;
  start: number;
  end: number;
  trusted?: boolean | undefined;
}

function replacement(text: string, span: PiiSpan, mode: PiiActionMode): string {
  if (mode === 'redact') return '';
  if (mode === 'mask') return PII_PLACEHOLDERS[span.type];
  return maskPiiValue(span.type, text.slice(span.start, span.end));
}

/**
 * `text` with every untrusted entity replaced as `mode` says. Throws a RangeError for a span outside the
 * text: a caller that mapped offsets wrongly must not silently forward the PII.
 */
export function applyPiiAction(text: string, entities: readonly PiiSpan[], mode: PiiActionMode): string {
  for (const e of entities) {
    if (!Number.isInteger(e.start) || !Number.isInteger(e.end) || e.start < 0 || e.end > text.length || e.end < e.start) {
      throw new RangeError(`PII span [${e.start}, ${e.end}) is outside a text of length ${text.length}`);
    }
  }
  const ordered = entities.filter((e) => !e.trusted && e.end > e.start).sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: PiiSpan[] = [];
  for (const e of ordered) {
    const last = kept[kept.length - 1];
    if (!last || e.start >= last.end) kept.push(e);
  }
  // One pass with the pieces joined at the end: the same result as replacing right to left, linear.
  const parts: string[] = [];
  let at = 0;
  for (const e of kept) {
    parts.push(text.slice(at, e.start), replacement(text, e, mode));
    at = e.end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}
