// The Normalizer service (spec: Request Normalizer, port 8081): POST /api/v1/normalize around the
// in-process normalizer, so the gateway's HTTP and in-process wirings run the same code.
import { z } from 'zod';
import { buildDetectorService, type DetectorServiceOptions, type Service, COMPONENT_PORTS } from '@palisade/core';
import type { Normalizer } from './normalize.js';

export const NORMALIZER_PORT = COMPONENT_PORTS.normalizer;
export const NORMALIZE_PATH = '/api/v1/normalize';

export const NORMALIZER_LIMITS = Object.freeze({
  /** Characters of one text (a prompt extracted by the field mapping). */
  maxTextLength: 1_000_000,
  bodyLimitBytes: 8 * 1024 * 1024,
});

export const NormalizeRequestSchema = z.object({
  text: z.string().max(NORMALIZER_LIMITS.maxTextLength),
  translation: z
    .object({ enabled: z.boolean(), target_lang: z.string().regex(/^[a-z]{2,3}$/, 'must be a lower-case ISO 639 language code') })
    .default({ enabled: false, target_lang: 'en' }),
  homoglyphs: z.boolean().default(true),
});
export type NormalizeRequest = z.input<typeof NormalizeRequestSchema>;

export interface NormalizeResponse {
  normalized: string;
  language: string | null;
  translated: string | null;
  translation: string;
  changed: boolean;
}

export interface NormalizerServiceOptions extends DetectorServiceOptions {
  normalizer: Normalizer;
}

/**
 * POST /api/v1/normalize {text, translation?: {enabled, target_lang}, homoglyphs?} → 200
 * {normalized, language, translated, translation, changed}; 400 VALIDATION_ERROR for a malformed body.
 * Translation outages are not errors here either: `translation` says 'unavailable' or 'failed'.
 */
export function buildNormalizerService(options: NormalizerServiceOptions): Service {
  return buildDetectorService(
    {
      name: 'normalizer',
      path: NORMALIZE_PATH,
      bodyLimit: NORMALIZER_LIMITS.bodyLimitBytes,
      async handle(input, call): Promise<NormalizeResponse> {
        const body = NormalizeRequestSchema.parse(input);
        const result = await options.normalizer.normalize(
          { text: body.text, profile: { translation: body.translation }, homoglyphs: body.homoglyphs },
          { traceId: call.traceId },
        );
        if (result.translationError) call.log.warn({ translation: result.translation, reason: result.translationError }, 'translation skipped');
        return { normalized: result.normalized, language: result.language, translated: result.translated, translation: result.translation, changed: result.changed };
      },
    },
    options,
  );
}
