import { afterEach, describe, expect, it, vi } from 'vitest';
import validator, { customizeValidator } from '@rjsf/validator-ajv8';
import { bodySchema } from '../api/schemas';
import { formValidators } from './form-validators';
import { testRenderer } from '../testing/render';
import { SchemaForm } from './SchemaForm';

// Counts the Russian validators made: the real factory, watched.
vi.mock('@rjsf/validator-ajv8', async (original) => {
  const real = await original<typeof import('@rjsf/validator-ajv8')>();
  return { ...real, customizeValidator: vi.fn(real.customizeValidator) };
});
vi.mock('react-i18next', async () => (await import('../testing/render')).reactI18next('ru'));
const view = testRenderer();
afterEach(() => view.unmount());

describe('form validators', () => {
  it('one per language: asked again, the same one', () => {
    const validators = formValidators();
    expect(validators.of('ru')).toBe(validators.of('ru'));
    expect(validators.of('en')).toBe(validator);
    expect(validators.of('ru')).not.toBe(validator);
  });

  it('forms opened one after another share the Russian validator instead of making one each', async () => {
    vi.mocked(customizeValidator).mockClear();
    for (const path of ['/api/v1/users', '/api/v1/providers', '/api/v1/users'] as const) {
      await view.render(<SchemaForm schema={bodySchema(path, 'post')!} formData={{}} onSubmit={() => {}} />);
      await view.unmount();
    }
    expect(vi.mocked(customizeValidator).mock.calls.length).toBeLessThanOrEqual(1);
  });
});
