// Times as people of the console's language write them (26.11.2026, 10:22:37 in Russian), not in the
// browser's own locale.
import { useTranslation } from 'react-i18next';

export function formatTime(value: string | number | Date, language: string): string {
  return new Date(value).toLocaleString(language);
}

export function useFormatTime(): (value: string | number | Date) => string {
  const { i18n } = useTranslation();
  return (value) => formatTime(value, i18n.language);
}
