// A resource form generated from the API's JSON Schema (react-jsonschema-form with Mantine widgets):
// every field of the resource, validated as the API validates it, with labels and help texts from the
// console's translations. Field errors the API answers (`details`: [{path, message}]) are shown on the field
// they name. Date and date-time fields are date pickers in the console's language; enum values that have
// words (statuses, event types, modes, an exporter's kind) are shown as those words and sent as the API's values.
import { useMemo } from 'react';
import Form, { Templates } from '@rjsf/mantine';
import type { BaseInputTemplateProps, RegistryWidgetsType, RJSFSchema, UiSchema } from '@rjsf/utils';
import { Alert, Button, Group } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { useTranslation } from 'react-i18next';
import { errorText } from '../api/client';
import { errorSchemaOf } from '../api/error-schema';
import { choiceTitles, enumLabel, enumNames, withEnumNames } from '../i18n/enum-labels';
import { fieldLabel, formStrings, labelled } from '../i18n/field-labels';
import { calendarSettings } from './dates';
import { DateTimeWidget, DateWidget } from './DateWidgets';
import { formValidators } from './form-validators';

const WIDGETS: RegistryWidgetsType = { DateWidget, DateTimeWidget };

const MantineInput = Templates.BaseInputTemplate!;
/**
 * Mantine's number input clamps a value outside the schema's minimum or maximum when it loses focus:
 * "100" typed into a field whose minimum is 1095 became 1095 and was saved without a word. A number is
 * kept as typed, and the form's validation refuses it on its field, as the API would.
 */
function BaseInputTemplate(props: BaseInputTemplateProps) {
  const numeric = props.schema.type === 'number' || props.schema.type === 'integer';
  return numeric ? <MantineInput {...props} options={{ ...props.options, clampBehavior: 'none' }} /> : <MantineInput {...props} />;
}
const TEMPLATES = { BaseInputTemplate };
// Each language's validator is made once (its compiled schemas are kept), not per form.
const validators = formValidators();

export interface SchemaFormProps {
  schema: RJSFSchema;
  uiSchema?: UiSchema;
  formData: unknown;
  onChange?(data: unknown): void;
  onSubmit(data: unknown): void;
  onCancel?(): void;
  error?: unknown;
  busy?: boolean;
  readOnly?: boolean;
}

export function SchemaForm(props: SchemaFormProps) {
  const { t, i18n } = useTranslation();
  const help = t('forms.fieldHelp', { returnObjects: true }) as Record<string, string>;
  const schema = useMemo(
    () => choiceTitles(labelled(props.schema, (name) => fieldLabel(t, name)), (kind, value) => enumLabel(t, kind, value)),
    [props.schema, i18n.language],
  );
  const translateString = useMemo(() => formStrings(t), [i18n.language]);
  // The form's own checks speak the console's language (ajv-i18n's texts for ajv's errors).
  const localValidator = validators.of(i18n.language);
  const formContext = useMemo(() => ({ language: i18n.language }), [i18n.language]);
  const uiSchema = useMemo(() => {
    const out: UiSchema = { 'ui:submitButtonOptions': { norender: true }, ...props.uiSchema };
    const keys = Object.keys((props.schema.properties as object | undefined) ?? {});
    // An order may name fields this variant of the form leaves out (rjsf refuses unknown names).
    if (Array.isArray(out['ui:order'])) out['ui:order'] = (out['ui:order'] as string[]).filter((k) => k === '*' || keys.includes(k));
    const properties = (props.schema.properties ?? {}) as Record<string, RJSFSchema>;
    for (const key of keys) {
      if (help[key]) out[key] = { 'ui:help': help[key], ...(out[key] as object | undefined) };
      // A choice of variants (upstream auth, an exporter's settings) shows its label, help and selector
      // once; the chosen variant's own fields follow without repeating its title or the help.
      for (const choice of ['oneOf', 'anyOf'] as const) {
        const variants = properties[key]?.[choice];
        const objects = Array.isArray(variants) && variants.every((v) => typeof v === 'object' && (v.type === 'object' || 'properties' in v));
        if (objects) out[key] = { [choice]: variants.map(() => ({ 'ui:options': { label: false } })), ...(out[key] as object | undefined) };
      }
    }
    return withEnumNames(out, enumNames(props.schema, (kind, value) => enumLabel(t, kind, value)));
  }, [props.schema, props.uiSchema, i18n.language]);
  const extraErrors = errorSchemaOf(props.error);
  const formId = useMemo(() => `form-${Math.random().toString(36).slice(2)}`, []);
  return (
    <>
      {props.error instanceof Error && (
        <Alert color="red" role="alert" mb="md" title={t('common.error')} data-testid="form-error">
          {errorText(props.error, t('common.forbidden'))}
          {extraErrors ? ` — ${t('common.fixErrors')}` : ''}
        </Alert>
      )}
      <DatesProvider settings={calendarSettings(i18n.language)}>
        <Form
          id={formId}
          schema={schema}
          uiSchema={uiSchema}
          formData={props.formData}
          validator={localValidator}
          widgets={WIDGETS}
          templates={TEMPLATES}
          formContext={formContext}
          readonly={props.readOnly}
          showErrorList={false}
          noHtml5Validate
          translateString={translateString}
          {...(extraErrors ? { extraErrors } : {})}
          onChange={(e) => props.onChange?.(e.formData)}
          onSubmit={(e) => props.onSubmit(e.formData)}
        />
      </DatesProvider>
      <Group justify="flex-end" mt="md">
        {props.onCancel && <Button variant="default" onClick={props.onCancel}>{t('common.cancel')}</Button>}
        {!props.readOnly && <Button type="submit" form={formId} loading={props.busy}>{t('common.save')}</Button>}
      </Group>
    </>
  );
}
