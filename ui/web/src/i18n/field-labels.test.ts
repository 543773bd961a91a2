import { describe, expect, it } from 'vitest';
import type { RJSFSchema } from '@rjsf/utils';
import openapi from '../api/openapi.json';
import { bodySchema, type OpenApiDoc } from '../api/schemas';
import { TranslatableString } from '@rjsf/utils';
import i18next from 'i18next';
import { formStrings, humanize, labelled, propertyNames } from './field-labels';
import { en } from './en';
import { ru } from './ru';

/** Every request body the console's forms are generated from (and the testers'): all of the API's. */
function formSchemas(): Array<[string, RJSFSchema]> {
  const out: Array<[string, RJSFSchema]> = [];
  for (const [path, methods] of Object.entries((openapi as OpenApiDoc).paths)) {
    for (const method of ['post', 'put'] as const) {
      const schema = methods[method]?.requestBody ? bodySchema(path, method) : undefined;
      if (schema) out.push([`${method.toUpperCase()} ${path}`, schema]);
    }
  }
  return out;
}

describe('form field labels', () => {
  it('every property of every form schema has a Russian label', () => {
    const schemas = formSchemas();
    expect(schemas.length).toBeGreaterThan(10);
    const missing = schemas.flatMap(([operation, schema]) =>
      [...propertyNames(schema)].filter((name) => !ru.forms.fields[name]?.trim()).map((name) => `${operation}: ${name}`));
    expect(missing).toEqual([]);
  });

  it('labels nested fields too: each choice of a union, array items', () => {
    const exporter = bodySchema('/api/v1/exporters', 'post')!;
    const label = (name: string) => ru.forms.fields[name] ?? humanize(name);
    const shown = labelled(exporter, label) as { oneOf: Array<{ title: string; properties: { config: { properties: Record<string, { title: string }> } } }> };
    const webhook = shown.oneOf.find((c) => c.title === 'webhook')!;
    expect(webhook.properties.config.properties.timeout_sec!.title).toBe('Тайм-аут (с)');
    const policy = labelled(bodySchema('/api/v1/content-policies', 'post')!, label) as { properties: { rules: { items: { properties: { pattern: { title: string } } } } } };
    expect(policy.properties.rules.items.properties.pattern.title).toBe('Шаблон');
  });

  it('English reads the property name unless it has an entry; the shared schema is not changed', () => {
    const schema = bodySchema('/api/v1/providers', 'post')!;
    const shown = labelled(schema, (name) => en.forms.fields[name] ?? humanize(name)) as { properties: Record<string, { title: string }> };
    expect(shown.properties.request_timeout_ms!.title).toBe('Request timeout ms');
    expect((schema.properties as Record<string, { title?: string }>).request_timeout_ms!.title).toBeUndefined();
  });

  it("the form library's own texts (buttons, item titles, a key's label) are in Russian too, with their parameters", async () => {
    const params = (text: string) => (text.match(/%\d/g) ?? []).sort();
    const missing = Object.entries(TranslatableString).filter(([name, text]) => !ru.forms.library[name] || params(ru.forms.library[name]!).join() !== params(text).join());
    expect(missing.map(([name]) => name)).toEqual([]);
    const i18n = i18next.createInstance();
    await i18n.init({ lng: 'ru', fallbackLng: 'en', resources: { en: { translation: en }, ru: { translation: ru } } });
    expect(formStrings(i18n.t)(TranslatableString.AddItemButton)).toBe('Добавить элемент');
    expect(formStrings(i18n.t)(TranslatableString.KeyLabel, ['X-Token'])).toBe('X-Token: ключ');
    await i18n.changeLanguage('en');
    expect(formStrings(i18n.t)(TranslatableString.KeyLabel, ['X-Token'])).toBe('X-Token Key');
  });

  it('severity is one Russian word everywhere, in the form labels as in the filters (критичность)', () => {
    /** Every text of `node` whose key (or a parent's) names severity, by its path. */
    const severityTexts = (node: unknown, path: string, into: Array<[string, string]> = []): Array<[string, string]> => {
      if (typeof node === 'string') {
        if (/severit/i.test(path)) into.push([path, node]);
      } else if (node && typeof node === 'object') {
        for (const [key, child] of Object.entries(node)) severityTexts(child, `${path}.${key}`, into);
      }
      return into;
    };
    // The severities' own names (Критическая, Высокая…) are values, not the concept.
    const texts = severityTexts({ ...ru, enums: {} }, 'ru');
    expect(texts.map(([path]) => path)).toEqual(expect.arrayContaining(['ru.events.severity', 'ru.forms.fields.severities', 'ru.dashboard.bySeverity']));
    expect(texts.filter(([, text]) => !/критичност/i.test(text))).toEqual([]);
  });
});
