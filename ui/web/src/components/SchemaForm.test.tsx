import { afterEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { bodySchema } from '../api/schemas';
import { testRenderer } from '../testing/render';
import { SchemaForm } from './SchemaForm';

// In Russian.
vi.mock('react-i18next', async () => (await import('../testing/render')).reactI18next('ru'));
const view = testRenderer();
afterEach(() => view.unmount());

describe('SchemaForm', () => {
  it('labels the fields in the console language, from the shared (frozen) schema without changing it', async () => {
    const schema = bodySchema('/api/v1/users', 'post')!;
    expect(Object.isFrozen(schema)).toBe(true);
    const container = await view.render(<SchemaForm schema={schema} formData={{}} onSubmit={() => {}} />);
    const labels = [...container.querySelectorAll('label')].map((l) => l.textContent?.replace(/\s*\*$/, ''));
    expect(labels).toEqual(expect.arrayContaining(['Имя пользователя', 'Электронная почта', 'Пароль', 'Имя', 'Фамилия']));
    expect(labels).not.toContain('Username');
  });

  it('checks the form in the console language before it is sent', async () => {
    const schema = bodySchema('/api/v1/users', 'post')!;
    const submitted = vi.fn();
    const container = await view.render(<SchemaForm schema={schema} formData={{ email: 'not-an-address' }} onSubmit={submitted} />);
    await act(async () => container.querySelector('form')!.requestSubmit());
    expect(submitted).not.toHaveBeenCalled();
    const errors = container.textContent ?? '';
    expect(errors).toMatch(/должно (иметь обязательное поле|соответствовать формату)/);
    expect(errors).not.toMatch(/must have required property|must match format/);
  });

  // Number fields (Mantine's NumberInput) and selects: the provider form.
  it('renders a form with number fields and selects, and checks its ranges in the console language', async () => {
    const schema = bodySchema('/api/v1/providers', 'post')!;
    const submitted = vi.fn();
    const container = await view.render(<SchemaForm schema={schema} formData={{ name: 'p', priority: 5000 }} onSubmit={submitted} />);
    expect(container.querySelector('input[inputmode="numeric"], input[inputmode="decimal"]')).not.toBeNull();
    // The upstream auth variants: their help once, not again inside the chosen variant.
    expect(container.textContent!.split('Как шлюз авторизуется у LLM').length - 1).toBe(1);
    await act(async () => container.querySelector('form')!.requestSubmit());
    expect(submitted).not.toHaveBeenCalled();
    expect(container.textContent).toMatch(/должно быть <= \d+/);
  });
});
