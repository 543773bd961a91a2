// The schema forms' date and date-time fields: Mantine's date pickers with a calendar in the console's
// language (the DatesProvider around the form gives the locale), shown as people of that language write
// dates, and giving the form the ISO strings the API expects: `2026-11-25` for a date, `2026-11-25T09:30:00.000Z`
// for a date-time. A date can also be typed, in the shown form or as ISO.
import { DateInput, DateTimePicker } from '@mantine/dates';
import { ariaDescribedByIds, labelValue, type WidgetProps } from '@rjsf/utils';
import { isoFromLocal, localFromIso, parseTypedDate, shownFormats } from './dates';

function common(props: WidgetProps) {
  return {
    id: props.id,
    name: props.name,
    required: props.required,
    disabled: props.disabled || props.readonly,
    label: labelValue(props.label || undefined, props.hideLabel, false),
    placeholder: props.placeholder || undefined,
    error: props.rawErrors && props.rawErrors.length > 0 ? props.rawErrors.join('\n') : undefined,
    'aria-describedby': ariaDescribedByIds(props.id),
    onBlur: () => props.onBlur(props.id, props.value),
    onFocus: () => props.onFocus(props.id, props.value),
  };
}

/** A `format: date` field. The form's language reaches it as `formContext.language`. */
export function DateWidget(props: WidgetProps) {
  const language = (props.registry.formContext as { language?: string } | undefined)?.language ?? 'en';
  return (
    <DateInput
      {...common(props)}
      value={typeof props.value === 'string' && props.value ? props.value : null}
      valueFormat={shownFormats(language).date}
      dateParser={(text) => parseTypedDate(text, language)}
      clearable={!props.required}
      onChange={(value) => props.onChange(value ?? undefined)}
    />
  );
}

/** A `format: date-time` field: a date and a time picked in local time, sent as an ISO instant. */
export function DateTimeWidget(props: WidgetProps) {
  const language = (props.registry.formContext as { language?: string } | undefined)?.language ?? 'en';
  return (
    <DateTimePicker
      {...common(props)}
      value={typeof props.value === 'string' && props.value ? localFromIso(props.value) : null}
      valueFormat={shownFormats(language).dateTime}
      clearable={!props.required}
      onChange={(value) => props.onChange(value ? isoFromLocal(value) : undefined)}
    />
  );
}
