// Times as people of the console's language write them (26.11.2026, 10:22:37 in Russian), not in the
// browser's own locale.
import { useTranslation } from 'react-i18next';

export function formatTime(value: string | number | Date, language: string): string {
  return new Date(value).toLocaleString(language);
}

/**
 * A period bound as the API stores it, a calendar day (`2026-11-25`) or an instant: a day is shown as
 * that day (01.11.2026), whatever the browser's zone; an instant as formatTime shows it.
 */
export function formatPeriodBound(value: string, language: string): string {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return day ? new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3])).toLocaleDateString(language) : formatTime(value, language);
}

export function useFormatTime(): (value: string | number | Date) => string {
  const { i18n } = useTranslation();
  return (value) => formatTime(value, i18n.language);
}
