// The languages people read Palisade in: English and Russian. A request's language comes from its
// Accept-Language header (the console sends its own choice there), English when it prefers neither.
import Negotiator from 'negotiator';

export const LANGUAGES = ['en', 'ru'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Longer headers are cut: a language list never needs more, and the parse stays bounded. */
const MAX_HEADER_CHARS = 512;

export function languageOf(acceptLanguage: string | string[] | undefined): Language {
  const header = Array.isArray(acceptLanguage) ? acceptLanguage.join(',') : (acceptLanguage ?? '');
  // Negotiator ranks by q-value and matches `ru-RU` to `ru`.
  const best = new Negotiator({ headers: { 'accept-language': header.slice(0, MAX_HEADER_CHARS) } }).language([...LANGUAGES]);
  return best === 'ru' ? 'ru' : 'en';
}
