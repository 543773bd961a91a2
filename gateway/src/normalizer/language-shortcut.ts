// A shortcut for the two languages most traffic is in, taken before franc's trigram statistics.
//
// Why by hand: franc weighs every trigram of the sample against each candidate language, about
// 0.4 ms per 2 KB prompt on the gateway's event loop, the largest single cost of an inspected request.
// Plain English and plain Russian are told apart far more cheaply and, on short texts, more reliably
// ("How do you make tiramisu?" is Portuguese to franc): English by its function words in an all-ASCII
// text, Russian by ы or э with none of the letters of the other Cyrillic languages that have them
// (Belarusian, Kazakh, Kyrgyz, Tatar, Mongolian). Anything else, mixed scripts included, answers null
// and goes to franc.

/**
 * Words that are common in English and are not frequent words of the other Latin-script languages:
 * "in", "is", "was", "we", "so" (Dutch, German), "a", "i", "no", "he", "me", "do", "as", "on"
 * (Romance), "at", "by", "her" (Scandinavian) are left out on purpose.
 */
const ENGLISH_FUNCTION_WORDS = new Set([
  'the', 'and', 'of', 'to', 'that', 'for', 'with', 'you', 'this', 'are', 'were', 'have', 'has', 'had',
  'not', 'what', 'how', 'your', 'can', 'will', 'would', 'from', 'be', 'been', 'it', 'its', 'my', 'they',
  'there', 'their', 'which', 'should', 'about', 'if', 'or', 'but', 'she', 'his', 'them', 'our', 'any',
  'does', 'did', 'than', 'then', 'who', 'why', 'when', 'where', 'into', 'out', 'just', 'more', 'some',
  'such', 'only', 'also', 'these', 'those', 'other', 'like', 'could', 'must', 'may', 'many', 'much',
  'very', 'each', 'please',
]);

/** Share of the sample's words that must be English function words (running English text: 30-40 %). */
const ENGLISH_WORD_SHARE = 0.2;
/** Share of the letters that must be of the one script (a few foreign names are allowed). */
const SCRIPT_SHARE = 0.99;
const MIN_WORDS = 5;

/** ы and э: Ukrainian, Bulgarian, Serbian and Macedonian have neither; the rest that do are ruled out below. */
const RUSSIAN_MARKERS = /[ыэ]/;
/** Letters of the other Cyrillic languages (Ukrainian, Belarusian, Kazakh, Kyrgyz, Serbian, Macedonian, Tajik, …). */
const OTHER_CYRILLIC = /[іїєґўәғқңөұүһјљњћџѓќѕӣӯҳҷ]/;
const LETTER = /\p{L}/u;

const isAsciiLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isCyrillic = (c: number): boolean => c >= 0x400 && c <= 0x4ff;

function englishWordShare(sample: string): number {
  let words = 0;
  let hits = 0;
  let start = -1;
  const lower = sample.toLowerCase();
  for (let i = 0; i <= lower.length; i++) {
    const letter = i < lower.length && isAsciiLetter(lower.charCodeAt(i));
    if (letter && start < 0) start = i;
    else if (!letter && start >= 0) {
      words++;
      if (ENGLISH_FUNCTION_WORDS.has(lower.slice(start, i))) hits++;
      start = -1;
    }
  }
  return words >= MIN_WORDS ? hits / words : 0;
}

/**
 * 'en' or 'ru' when the sample is plainly in that language, else null (franc decides).
 * `minLetters`: below it nothing is decided, as in the statistical detector.
 */
export function commonLanguageOf(sample: string, minLetters: number): 'en' | 'ru' | null {
  let ascii = 0;
  let cyrillic = 0;
  let other = 0;
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i);
    if (isAsciiLetter(c)) ascii++;
    else if (isCyrillic(c)) cyrillic++;
    else if (c > 127 && LETTER.test(sample[i]!)) other++;
  }
  const letters = ascii + cyrillic + other;
  if (letters < minLetters) return null;
  if (ascii >= SCRIPT_SHARE * letters) return englishWordShare(sample) >= ENGLISH_WORD_SHARE ? 'en' : null;
  if (cyrillic >= SCRIPT_SHARE * letters) {
    const lower = sample.toLowerCase();
    return RUSSIAN_MARKERS.test(lower) && !OTHER_CYRILLIC.test(lower) ? 'ru' : null;
  }
  return null;
}
