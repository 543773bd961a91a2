// Language detection for the translation decision. It reuses the content policy service's detector
// (detectors/src/content-policy/language.ts: franc trigrams with script rules, a minimum of letters
// and an "undetermined" answer), so one text gets one language across the product.
import {
  CONTENT_LANGUAGE_DEFAULTS,
  createContentLanguageDetector,
  languageSampleOf,
  type ContentLanguageDetection,
  type ContentLanguageDetectorOptions,
} from '@palisade/detectors';
import { commonLanguageOf } from './language-shortcut.js';

export type NormalizerLanguageDetection = ContentLanguageDetection;

/** (normalized text) → its language; `determined: false` when too short or not tellable. */
export type NormalizerLanguageDetector = (text: string) => NormalizerLanguageDetection;

/**
 * Characters the normalizer looks at (three windows: start, middle, end). It runs on every inspected
 * request, and franc's cost grows with the sample: on the training set's prompts of 300+ characters,
 * 512 agrees with a 4,096-character sample on 99.9 % and matches the labelled language as often
 * (97.1 % vs 97.0 %), at a quarter of the cost on a 2 KB prompt. Language policies, which block,
 * keep the content policy detector's larger sample.
 */
export const NORMALIZER_LANGUAGE_SAMPLE = 512;

/**
 * The languages the normalizer tells apart (spec: "ru, en and the common others"): those with a
 * translation or phone-number use here. franc weighs a text against every candidate of its script,
 * so this list halves its cost against all 82 of franc-min; a text in a language not listed is
 * named after its nearest listed neighbour or left undetermined, never blocked (language policies
 * use the content policy detector, which knows all 82).
 */
export const NORMALIZER_LANGUAGES: readonly string[] = [
  'en', 'ru', 'uk', 'be', 'kk', 'uz', 'az', 'tr', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'pl', 'cs', 'ro', 'hu', 'sv',
  'hr', 'bs', 'sr', 'bg', 'id', 'ms', 'vi', 'ar', 'fa', 'ur', 'hi', 'bn', 'mr', 'ne', 'th', 'el', 'ta', 'te',
];

/**
 * Plain English and plain Russian are answered by `commonLanguageOf` (language-shortcut.ts), everything
 * else by the content policy detector's franc statistics. On the training set's 6,446 determinable
 * prompts the shortcut answers 70 %, in agreement with their labelled language every time (franc: 94 %
 * of those), at 0.01 ms instead of 0.4 ms on a 2 KB prompt.
 */
export function createNormalizerLanguageDetector(options: ContentLanguageDetectorOptions = {}): NormalizerLanguageDetector {
  const sampleLength = options.sampleLength ?? NORMALIZER_LANGUAGE_SAMPLE;
  const minLetters = options.minLetters ?? CONTENT_LANGUAGE_DEFAULTS.minLetters;
  const detect = createContentLanguageDetector({ sampleLength, languages: NORMALIZER_LANGUAGES, ...options });
  return (text) => {
    const common = commonLanguageOf(languageSampleOf(text, sampleLength), minLetters);
    return common ? { language: common, candidates: [common], determined: true } : detect(text);
  };
}

/**
 * Translation is needed when the language is determined and is not the target. An undetermined text
 * (too short, too few letters, a mixed part that could not be told) is left untranslated: guessing
 * would send English to the translator as often as not.
 */
export function needsTranslation(detection: NormalizerLanguageDetection, targetLang: string): detection is NormalizerLanguageDetection & { language: string } {
  return detection.determined && detection.language !== null && detection.language !== targetLang;
}
