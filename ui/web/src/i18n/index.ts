// English and Russian; the choice is remembered in localStorage and applied to <html lang>.
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from './en';
import { ru } from './ru';

export const LANGUAGES = ['en', 'ru'] as const;
export type Language = (typeof LANGUAGES)[number];
const STORAGE_KEY = 'palisade.language';

function remembered(): Language {
  const stored = typeof localStorage === 'undefined' ? null : localStorage.getItem(STORAGE_KEY);
  if (stored === 'en' || stored === 'ru') return stored;
  return typeof navigator !== 'undefined' && navigator.language.startsWith('ru') ? 'ru' : 'en';
}

export function setupI18n(language: Language = remembered()) {
  void i18n.use(initReactI18next).init({
    resources: { en: { translation: en }, ru: { translation: ru } },
    lng: language,
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
  });
  document.documentElement.lang = language;
  return i18n;
}

export function changeLanguage(language: Language) {
  localStorage.setItem(STORAGE_KEY, language);
  document.documentElement.lang = language;
  return i18n.changeLanguage(language);
}
