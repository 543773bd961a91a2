// A point in time picked in the console's language (calendar, month names, 25.11.2026 10:30 in Russian),
// as the ISO instant the API's time filters take: the events list's From / To and the dashboard's custom
// range, where the browser's own datetime field would follow the browser's locale instead.
import { DatesProvider, DateTimePicker } from '@mantine/dates';
import { useTranslation } from 'react-i18next';
import { calendarSettings, isoFromLocal, localFromIso, shownFormats } from './dates';

export interface InstantPickerProps {
  label?: string;
  'aria-label'?: string;
  /** An ISO instant, or null for none. */
  value: string | null;
  onChange(value: string | null): void;
  clearable?: boolean;
  w?: number;
}

export function InstantPicker(props: InstantPickerProps) {
  const { i18n } = useTranslation();
  return (
    <DatesProvider settings={calendarSettings(i18n.language)}>
      <DateTimePicker
        label={props.label}
        aria-label={props['aria-label']}
        w={props.w}
        clearable={props.clearable}
        valueFormat={shownFormats(i18n.language).dateTime}
        value={props.value ? localFromIso(props.value) : null}
        onChange={(value) => props.onChange(value ? isoFromLocal(value) : null)}
      />
    </DatesProvider>
  );
}
