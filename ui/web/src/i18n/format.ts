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
  const day = calendarDay(value);
  return day ? day.toLocaleDateString(language) : formatTime(value, language);
}

/**
 * A day of a chart's axis (the API's `2026-11-25`) short, as the console's language writes it:
 * "Nov 25", "25 нояб.". A value that is no calendar day is shown as it is.
 */
export function formatAxisDay(value: string, language: string): string {
  const day = calendarDay(value);
  return day ? day.toLocaleDateString(language, { day: 'numeric', month: 'short' }) : value;
}

/** `2026-11-25` as that day at local midnight (so no zone moves it to the day before). */
function calendarDay(value: string): Date | undefined {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return day ? new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3])) : undefined;
}

export function useFormatTime(): (value: string | number | Date) => string {
  const { i18n } = useTranslation();
  return (value) => formatTime(value, i18n.language);
}
