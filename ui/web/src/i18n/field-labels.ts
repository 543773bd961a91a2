// Labels of the generated forms' fields. The schemas come from the API and name fields by property
// ("request_timeout_ms"); the form shows each in the console's language from `forms.fields.<property>`,
// and a property without a translation reads as its name made readable ("Request timeout ms").
import { replaceStringParameters, TranslatableString, type RJSFSchema } from '@rjsf/utils';
import type { TFunction } from 'i18next';

export function humanize(name: string): string {
  const words = name.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A property's label in the console's language: its translation, else its name made readable. */
export const fieldLabel = (t: TFunction, name: string): string => t(`forms.fields.${name}`, { defaultValue: humanize(name) });

/** rjsf's enum member name of each of its English texts ("Add Item" → AddItemButton): the translation key. */
const FORM_STRING_NAMES = new Map<string, string>(Object.entries(TranslatableString).map(([name, text]) => [text, name]));

/**
 * The form library's own texts (its buttons, "Item", "<field> Key", …) in the console's language, from
 * `forms.library.<member of rjsf's TranslatableString>`, else rjsf's English; `%1`… are its parameters.
 */
export function formStrings(t: TFunction): (text: TranslatableString, params?: string[]) => string {
  return (text, params) => replaceStringParameters(t(`forms.library.${FORM_STRING_NAMES.get(text) ?? 'unknown'}`, { defaultValue: text }), params);
}

/**
 * A copy of `schema` whose every property, at any depth (nested objects, array items, each choice of a
 * union), has `label(name)` as its title. The schema itself is shared between forms and never changed.
 */
export function labelled(schema: RJSFSchema, label: (name: string) => string): RJSFSchema {
  return relabel(schema, label) as RJSFSchema;
}

function relabel(node: unknown, label: (name: string) => string): unknown {
  if (Array.isArray(node)) return node.map((child) => relabel(child, label));
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && value && typeof value === 'object') {
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, prop]) => [name, { ...(relabel(prop, label) as object), title: label(name) }]),
      );
      continue;
    }
    out[key] = relabel(value, label);
  }
  return out;
}

/** Every property name of a schema, at any depth: what the translations must cover. */
export function propertyNames(node: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(node)) {
    for (const child of node) propertyNames(child, into);
  } else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties' && value && typeof value === 'object') {
        for (const [name, prop] of Object.entries(value)) {
          into.add(name);
          propertyNames(prop, into);
        }
      } else {
        propertyNames(value, into);
      }
    }
  }
  return into;
}
