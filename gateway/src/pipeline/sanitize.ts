// Step 5's SANITIZE: the PII the decision names is rewritten inside the original JSON at the mapped
// pointers — masked (the spec's mask table), redacted, or replaced by numbered placeholders
// (pseudonymize) that the answer gets back. The values found in the normalized text are mapped back
// to each original part first.
import { replaceAllAt, type TextPart } from '@palisade/core';
import { applyPiiAction, type PiiSpan } from '@palisade/detectors';
import type { DecisionPiiEntity, RequestDecisionResult } from '../decision/index.js';
import type { Normalized } from '../normalizer/index.js';
import { Pseudonyms, replaceSpans, type Replacement } from './pseudonyms.js';
import type { JoinedParts } from './text-parts.js';

/** The part's values replaced by their numbered placeholders (spans sorted, overlaps dropped as applyPiiAction does). */
function pseudonymize(text: string, spans: readonly PiiSpan[], pseudonyms: Pseudonyms): string {
  const kept: Replacement[] = [];
  for (const span of [...spans].sort((a, b) => a.start - b.start || b.end - a.end)) {
    if (span.trusted || span.end <= span.start || (kept.length > 0 && span.start < kept[kept.length - 1]!.end)) continue;
    kept.push({ start: span.start, end: span.end, replacement: pseudonyms.placeholderFor(span.type, text.slice(span.start, span.end)) });
  }
  return replaceSpans(text, kept);
}

/**
 * Entities found in the normalized text → spans of each original part. A span that crosses the
 * separator between two parts is cut at the part boundaries, so no piece of the value goes upstream.
 */
function spansByPart(entities: readonly DecisionPiiEntity[], normalized: Pick<Normalized, 'toOriginal'>, joined: JoinedParts, parts: readonly TextPart[]): Map<number, PiiSpan[]> {
  const byPart = new Map<number, PiiSpan[]>();
  for (const entity of entities) {
    const original = normalized.toOriginal(entity.start, entity.end);
    for (let i = 0; i < parts.length; i++) {
      const partStart = joined.starts[i]!;
      const partEnd = partStart + parts[i]!.text.length;
      const start = Math.max(original.start, partStart);
      const end = Math.min(original.end, partEnd);
      if (start >= end) continue;
      const list = byPart.get(i) ?? [];
      list.push({ type: entity.type, start: start - partStart, end: end - partStart });
      byPart.set(i, list);
    }
  }
  return byPart;
}

export interface SanitizedRequest {
  /** What goes upstream: the original bytes, or the body with its PII rewritten. */
  body: Buffer;
  pseudonyms: Pseudonyms | undefined;
}

export function sanitizeRequest(
  result: RequestDecisionResult,
  request: { raw: Buffer; json: unknown; extraction: { prompt_parts: readonly TextPart[] } },
  normalized: Pick<Normalized, 'toOriginal'>,
  joined: JoinedParts,
): SanitizedRequest {
  if (result.effective !== 'SANITIZE' || !result.sanitize || result.sanitize.entities.length === 0) return { body: request.raw, pseudonyms: undefined };
  const parts = request.extraction.prompt_parts;
  // Mask mode writes the spec's mask table values (i***@example.com); redact removes the value.
  const mode = result.sanitize.mode === 'redact' ? 'redact' : 'partial';
  const pseudonyms = result.sanitize.mode === 'pseudonymize' ? new Pseudonyms() : undefined;
  const replacements: TextPart[] = [];
  for (const [index, spans] of spansByPart(result.sanitize.entities, normalized, joined, parts)) {
    const part = parts[index]!;
    replacements.push({ pointer: part.pointer, text: pseudonyms ? pseudonymize(part.text, spans, pseudonyms) : applyPiiAction(part.text, spans, mode) });
  }
  return { body: Buffer.from(JSON.stringify(replaceAllAt(request.json, replacements)), 'utf8'), pseudonyms };
}
