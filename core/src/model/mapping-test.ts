// The mapping tester of the Admin API (POST /providers/mapping-test): the five JSONPath strings of a
// provider's mapping run on a sample exchange by the gateway's own extractor.
import { z } from 'zod';
import { FIELD_MAPPING_KEYS } from '../mapping/presets.js';
import { MappingCustom, MappingPreset } from './provider.js';

/**
 * The mapping as the provider form holds it (custom paths override the preset's, as in the gateway)
 * and the exchange to read. A missing body or response is the preset's sample (custom_simple's without
 * a preset); the answer returns the bodies it read.
 */
export const MappingTestRequest = z.object({
  mapping_preset: MappingPreset.nullable().optional(),
  mapping_custom: MappingCustom.partial().nullable().optional(),
  body: z.unknown().optional(),
  response_body: z.unknown().optional(),
});
export type MappingTestRequest = z.infer<typeof MappingTestRequest>;

export const MappingField = z.enum(FIELD_MAPPING_KEYS);

/** One path: the effective JSONPath, and what it extracts or why it could not be evaluated. */
export const MappingPathResult = z.object({
  field: MappingField,
  /** The effective path (custom over preset), in full JSONPath; null when the mapping has none. */
  path: z.string().nullable(),
  /** prompt and system prompt: the joined text; user messages: one text each; model: the value. */
  value: z.union([z.string(), z.array(z.string())]).nullable(),
  error: z.string().nullable(),
});
export type MappingPathResult = z.infer<typeof MappingPathResult>;

export const MappingTestResult = z.object({
  results: z.array(MappingPathResult),
  body: z.unknown(),
  response_body: z.unknown(),
});
export type MappingTestResult = z.infer<typeof MappingTestResult>;
