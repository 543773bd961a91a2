// Language detection for the translation decision. It reuses the content policy service's detector
// (detectors/src/content-policy/language.ts: franc trigrams with script rules, a minimum of letters
// and an "undetermined" answer), so one text gets one language across the product.
import { createContentLanguageDetector, type ContentLanguageDetection, type ContentLanguageDetectorOptions } from '@palisade/detectors';

export type NormalizerLanguageDetection = ContentLanguageDetection;

/** (normalized text) → its language; `determined: false` when too short or not tellable. */
export type NormalizerLanguageDetector = (text: string) => NormalizerLanguageDetection;

export function createNormalizerLanguageDetector(options: ContentLanguageDetectorOptions = {}): NormalizerLanguageDetector {
  const detect = createContentLanguageDetector(options);
  return (text) => detect(text);
}

/**
 * Translation is needed when the language is determined and is not the target. An undetermined text
 * (too short, too few letters, a mixed part that could not be told) is left untranslated: guessing
 * would send English to the translator as often as not.
 */
export function needsTranslation(detection: NormalizerLanguageDetection, targetLang: string): detection is NormalizerLanguageDetection & { language: string } {
  return detection.determined && detection.language !== null && detection.language !== targetLang;
}
