// The Request Normalizer (spec: port 8081 and in-process): homoglyph normalization with an offset map
// back to the original, language detection, translation through the translation detector, and the
// HTTP service.
export { CYRILLIC_LATIN_CONFUSABLES, type ConfusableDirection, type ConfusableOrigin } from './confusables.js';
export { IDENTITY_OFFSETS, type OffsetMap, type OriginalSpan } from './offset-map.js';
export { normalizeHomoglyphs, normalizeUnicode, type HomoglyphNormalization } from './homoglyphs.js';
export { resolveMixedScripts } from './scripts.js';
export { createNormalizerLanguageDetector, needsTranslation, type NormalizerLanguageDetection, type NormalizerLanguageDetector } from './language.js';
export type { TranslateAnswer, TranslateCall, TranslationDetector } from './translation-types.js';
export { TRANSLATE_HTTP_PATH, createTranslationClient, type TranslationClient, type TranslationClientOptions } from './translation-client.js';
export {
  TRANSLATION_OUTCOMES,
  createNormalizer,
  type NormalizeInput,
  type NormalizeProfile,
  type Normalized,
  type LocalNormalization,
  type StagedNormalization,
  type Normalizer,
  type NormalizerOptions,
  type TranslationOutcome,
} from './normalize.js';
export {
  NORMALIZER_LIMITS,
  NORMALIZER_PORT,
  NORMALIZE_PATH,
  NormalizeRequestSchema,
  buildNormalizerService,
  type NormalizeRequest,
  type NormalizeResponse,
  type NormalizerServiceOptions,
} from './service.js';
export { formatHomoglyphSpeed, homoglyphSpeedTexts, measureHomoglyphSpeed, type HomoglyphLatency, type HomoglyphSpeedOptions } from './speed.js';
