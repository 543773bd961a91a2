import { afterEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MantineProvider } from '@mantine/core';
import { bodySchema } from '../api/schemas';
import { SchemaForm } from './SchemaForm';

// As in Inspection.test.tsx: React 19's renderer, and i18next without its React binding, here in Russian.
vi.mock('react-i18next', async () => {
  const i18n = (await import('i18next')).createInstance();
  await i18n.init({
    lng: 'ru', fallbackLng: 'en', interpolation: { escapeValue: false },
    resources: { en: { translation: (await import('../i18n/en')).en }, ru: { translation: (await import('../i18n/ru')).ru } },
  });
  return { useTranslation: () => ({ t: i18n.t.bind(i18n), i18n }) };
});
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
let root: Root | undefined;
afterEach(() => act(() => root?.unmount()));

describe('SchemaForm', () => {
  it('labels the fields in the console language, from the shared (frozen) schema without changing it', async () => {
    const schema = bodySchema('/api/v1/users', 'post')!;
    expect(Object.isFrozen(schema)).toBe(true);
    const container = document.body.appendChild(document.createElement('div'));
    root = createRoot(container);
    await act(async () => root!.render(<MantineProvider><SchemaForm schema={schema} formData={{}} onSubmit={() => {}} /></MantineProvider>));
    const labels = [...container.querySelectorAll('label')].map((l) => l.textContent?.replace(/\s*\*$/, ''));
    expect(labels).toEqual(expect.arrayContaining(['Имя пользователя', 'Электронная почта', 'Пароль', 'Имя', 'Фамилия']));
    expect(labels).not.toContain('Username');
  });

  it('checks the form in the console language before it is sent', async () => {
    const schema = bodySchema('/api/v1/users', 'post')!;
    const container = document.body.appendChild(document.createElement('div'));
    root = createRoot(container);
    const submitted = vi.fn();
    await act(async () => root!.render(<MantineProvider><SchemaForm schema={schema} formData={{ email: 'not-an-address' }} onSubmit={submitted} /></MantineProvider>));
    await act(async () => container.querySelector('form')!.requestSubmit());
    expect(submitted).not.toHaveBeenCalled();
    const errors = container.textContent ?? '';
    expect(errors).toMatch(/должно (иметь обязательное поле|соответствовать формату)/);
    expect(errors).not.toMatch(/must have required property|must match format/);
  });

  // Number fields (Mantine's NumberInput) and selects: the provider form.
  it('renders a form with number fields and selects, and checks its ranges in the console language', async () => {
    const schema = bodySchema('/api/v1/providers', 'post')!;
    const container = document.body.appendChild(document.createElement('div'));
    root = createRoot(container);
    const submitted = vi.fn();
    await act(async () => root!.render(<MantineProvider><SchemaForm schema={schema} formData={{ name: 'p', priority: 5000 }} onSubmit={submitted} /></MantineProvider>));
    expect(container.querySelector('input[inputmode="numeric"], input[inputmode="decimal"]')).not.toBeNull();
    // The upstream auth variants: their help once, not again inside the chosen variant.
    expect(container.textContent!.split('Как шлюз авторизуется у LLM').length - 1).toBe(1);
    await act(async () => container.querySelector('form')!.requestSubmit());
    expect(submitted).not.toHaveBeenCalled();
    expect(container.textContent).toMatch(/должно быть <= \d+/);
  });
});
