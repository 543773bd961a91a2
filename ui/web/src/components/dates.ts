// Dates as people of the console's language write them, and the ISO strings the API takes: shared by the
// schema forms' date widgets and the time filters (events, the dashboard's custom range).
import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import 'dayjs/locale/ru';

dayjs.extend(customParseFormat);

/** How a date and a date-time are shown in each language (dayjs formats); English is the fallback. */
const SHOWN: Record<string, { date: string; dateTime: string }> = {
  en: { date: 'D MMM YYYY', dateTime: 'D MMM YYYY HH:mm' },
  ru: { date: 'DD.MM.YYYY', dateTime: 'DD.MM.YYYY HH:mm' },
};
export const shownFormats = (language: string) => SHOWN[language] ?? SHOWN.en!;

/** The calendar's locale and first weekday for Mantine's DatesProvider. */
export const calendarSettings = (language: string) => ({ locale: language, firstDayOfWeek: language === 'ru' ? 1 : 0 } as const);

/** A typed date in the shown form or as ISO (strictly), as `YYYY-MM-DD`; null when it is neither. */
export function parseTypedDate(text: string, language: string): string | null {
  const input = text.trim();
  for (const format of [shownFormats(language).date, 'YYYY-MM-DD']) {
    const parsed = dayjs(input, format, language, true);
    if (parsed.isValid()) return parsed.format('YYYY-MM-DD');
  }
  return null;
}

/** A picker's local `YYYY-MM-DD HH:mm:ss` as the API's ISO instant (UTC), and back. */
export const isoFromLocal = (local: string): string => dayjs(local, 'YYYY-MM-DD HH:mm:ss').toISOString();
export const localFromIso = (iso: string): string | null => {
  const parsed = dayjs(iso);
  return parsed.isValid() ? parsed.format('YYYY-MM-DD HH:mm:ss') : null;
};
