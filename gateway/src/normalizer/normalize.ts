// The Request Normalizer (spec, "Gateway pipeline", step 2): homoglyph normalization (on unless the
// call turns it off), language detection, and translation when the profile enables it and the text is
// not in target_lang. The threat model sees `translated ?? normalized`, the other detectors `normalized`
// (normalizeInStages hands it out before the translation answers); masking rewrites `original` through
// `toOriginal` (positions in `normalized`, not in the translation, which has no positional link).
//
// Translation never fails the request: a 503 or a network failure is skipped ('unavailable'), any other
// error too ('failed'); the detectors then see the normalized, untranslated text.
import { isPalisadeError } from '@palisade/core';
import type { DetectorCallOptions } from '@palisade/detectors';
import { normalizeHomoglyphs } from './homoglyphs.js';
import { createNormalizerLanguageDetector, needsTranslation, type NormalizerLanguageDetector } from './language.js';
import type { OriginalSpan } from './offset-map.js';
import type { TranslationDetector } from './translation-types.js';
import { extend } from '../objects.js';

export const TRANSLATION_OUTCOMES = ['not-needed', 'done', 'unavailable', 'failed', 'disabled'] as const;
export type TranslationOutcome = (typeof TRANSLATION_OUTCOMES)[number];

export interface NormalizeProfile {
  translation: { enabled: boolean; target_lang: string };
}

export interface NormalizeInput {
  text: string;
  profile: NormalizeProfile;
  /** Homoglyph normalization; default true (spec: on by default in every profile). */
  homoglyphs?: boolean;
}

export interface Normalized {
  original: string;
  /** After homoglyph normalization (the original when it is off). */
  normalized: string;
  /** Whether `normalized` differs from `original`. */
  changed: boolean;
  /** Detected language of `normalized`; null when not determined. */
  language: string | null;
  /** The translation into target_lang, when one was made. */
  translated: string | null;
  translation: TranslationOutcome;
  /** The translation failure's reason, for logs and events (absent when none). */
  translationError?: string;
  /** A span of `normalized` → the span of `original` that produced it. */
  toOriginal(start: number, end: number): OriginalSpan;
}

export interface NormalizerOptions {
  /** In-process translator or createTranslationClient(); none: translation is 'unavailable' when needed. */
  translator?: TranslationDetector | undefined;
  detectLanguage?: NormalizerLanguageDetector;
}

/** Homoglyph normalization and the language: known before any translation call. */
export type LocalNormalization = Pick<Normalized, 'original' | 'normalized' | 'changed' | 'language' | 'toOriginal'>;

export interface StagedNormalization {
  local: LocalNormalization;
  /** The whole normalization: at once when no translation call is made, else once the translator answered or failed. */
  complete: Normalized | Promise<Normalized>;
}

export interface Normalizer {
  normalize(input: NormalizeInput, call?: DetectorCallOptions): Promise<Normalized>;
  /**
   * The same in two steps, so that a caller can start the work that reads the normalized text (PII,
   * content policies, content safety) while the translation call is out. Throws what normalize rejects with.
   */
  normalizeInStages(input: NormalizeInput, call?: DetectorCallOptions): StagedNormalization;
}

/** True for the failures the pipeline skips as "the service is not there": 503 and the network. */
function isUnavailable(error: unknown): boolean {
  return isPalisadeError(error) && error.code === 'SERVICE_UNAVAILABLE';
}

export function createNormalizer(options: NormalizerOptions = {}): Normalizer {
  const detectLanguage = options.detectLanguage ?? createNormalizerLanguageDetector();
  const translator = options.translator;

  function normalizeInStages(input: NormalizeInput, call: DetectorCallOptions = {}): StagedNormalization {
    const homoglyphs = input.homoglyphs ?? true;
    const h = homoglyphs ? normalizeHomoglyphs(input.text) : undefined;
    const normalized = h ? h.text : input.text;
    const toOriginal = h ? (start: number, end: number) => h.offsets.toOriginal(start, end) : (start: number, end: number) => ({ start, end });
    const detection = detectLanguage(normalized);
    const local = { original: input.text, normalized, changed: h?.changed ?? false, language: detection.language, toOriginal };
    const { enabled, target_lang: target } = input.profile.translation;
    if (!enabled) return { local, complete: extend(local, { translated: null, translation: 'disabled' as const }) };
    if (!needsTranslation(detection, target)) return { local, complete: extend(local, { translated: null, translation: 'not-needed' as const }) };
    if (!translator) return { local, complete: extend(local, { translated: null, translation: 'unavailable' as const, translationError: 'no translator configured' }) };
    const translate = async (): Promise<Normalized> => {
      try {
        const result = await translator.detect({ text: normalized, source_lang: detection.language, target_lang: target }, call);
        return extend(local, { translated: result.translation, translation: 'done' as const });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        return extend(local, { translated: null, translation: isUnavailable(error) ? ('unavailable' as const) : ('failed' as const), translationError: reason });
      }
    };
    // Called now: the request goes out before the caller starts the other detectors.
    const complete = translate();
    return { local, complete };
  }

  return {
    async normalize(input, call = {}) {
      return normalizeInStages(input, call).complete;
    },
    normalizeInStages,
  };
}
