// The HTTP and in-process contract of the PII detector (POST /api/v1/detect on port 8084).
// Request: {text, language, types?, direction?, system_prompt?, trusted?}; unknown fields are ignored
// (the gateway may send tenant_id or trace_context). Response: {has_pii, entities}.
import { PalisadeError, PiiType, normalisePiiTypes, toPalisadeError } from '@palisade/core';
import { z } from 'zod';
import type { PiiTrustMark } from './trusted.js';

/** The spec's limit on the text: over 1 MiB (UTF-8 bytes) is refused with 413. */
export const PII_MAX_TEXT_BYTES = 1024 * 1024;

/** A mark of a trust_pii content policy: a value, or a span of `text` (trusted.ts). */
export const PiiTrustMarkSchema = z.union([
  z.string().min(1),
  z
    .object({
      value: z.string().min(1).optional(),
      start: z.number().int().min(0).optional(),
      end: z.number().int().min(0).optional(),
      /** The one type the mark applies to (aliases such as PHONE accepted). */
      type: z.preprocess((v) => (typeof v === 'string' ? (normalisePiiTypes([v]) as unknown[])[0] : v), PiiType).optional(),
    })
    .refine((m) => m.value !== undefined || (m.start !== undefined && m.end !== undefined && m.end > m.start), {
      message: 'a trusted mark needs a value or a span with start < end',
    }),
]);

export const PiiDetectRequestSchema = z.object({
  text: z.string({ error: (issue) => (issue.input === undefined ? 'text is required' : 'text must be a string') }),
  /** BCP 47 tag ("ru", "en-US") or "auto"; picks the country of national phone numbers. */
  language: z.string().max(35).nullish(),
  /** PII type names (aliases such as PHONE accepted); default: every type of the direction. */
  types: z.preprocess(normalisePiiTypes, z.array(PiiType).max(64)).nullish(),
  /** `input` (a request; default) or `output` (an answer: output-only types apply too). */
  direction: z.preprocess((v) => (typeof v === 'string' ? v.toLowerCase() : v), z.enum(['input', 'output'])).nullish(),
  /** The request's system prompt, for SYSTEM_PROMPT_LEAK in answers. */
  system_prompt: z.string().nullish(),
  /** Marks of trust_pii content policies. */
  trusted: z.array(PiiTrustMarkSchema).max(1000).nullish(),
});
/** The request as callers write it (the schema also accepts null for the optional fields). */
export interface PiiDetectRequest {
  text: string;
  language?: string | null | undefined;
  /** Type names or aliases ("PHONE"), any case. */
  types?: readonly string[] | null | undefined;
  direction?: 'input' | 'output' | null | undefined;
  system_prompt?: string | null | undefined;
  trusted?: readonly PiiTrustMark[] | null | undefined;
}
export type ParsedPiiDetectRequest = z.output<typeof PiiDetectRequestSchema>;

export const PiiDetectedEntitySchema = z.object({
  type: PiiType,
  start: z.number().int().min(0),
  end: z.number().int().min(0),
  value: z.string(),
  score: z.number().min(0).max(1),
  masked: z.string(),
  trusted: z.literal(true).optional(),
});

export const PiiDetectResponseSchema = z.object({
  /** True when at least one entity is not trusted. */
  has_pii: z.boolean(),
  entities: z.array(PiiDetectedEntitySchema),
});
export type PiiDetectResponse = z.infer<typeof PiiDetectResponseSchema>;

/**
 * Validates a request body: a PalisadeError VALIDATION_ERROR (400, with the field paths) for a bad
 * shape, PAYLOAD_TOO_LARGE (413) for a text over 1 MiB.
 */
export function parsePiiDetectRequest(body: unknown): ParsedPiiDetectRequest {
  const parsed = PiiDetectRequestSchema.safeParse(body ?? undefined);
  if (!parsed.success) throw toPalisadeError(parsed.error);
  // Cheap bound first: a string of n UTF-16 units is at most 3n UTF-8 bytes.
  const { text } = parsed.data;
  if (text.length * 3 > PII_MAX_TEXT_BYTES && Buffer.byteLength(text, 'utf8') > PII_MAX_TEXT_BYTES) {
    throw new PalisadeError('PAYLOAD_TOO_LARGE', { message: `text is over ${PII_MAX_TEXT_BYTES} bytes (1 MiB)` });
  }
  return parsed.data;
}
