import { describe, expect, it } from 'vitest';
import validator from '@rjsf/validator-ajv8';
import { bodySchema } from './schemas';

describe('bodySchema', () => {
  it("gives a user form the form can validate (zod's e-mail pattern does not compile with the u flag)", () => {
    const schema = bodySchema('/api/v1/users', 'post')!;
    const user = { username: 'erin', email: 'erin@example.com', password: 'Correct-Horse-42', first_name: 'Erin', last_name: 'Example' };
    expect(validator.validateFormData(user, schema).errors).toEqual([]);
    expect(validator.validateFormData({ ...user, username: 'a b' }, schema).errors.map((e) => e.property)).toEqual(['.username']);
  });

  it('shows a period bound (a date or a date-time) as a date field', () => {
    const period = (bodySchema('/api/v1/reports', 'post')!.properties as Record<string, Record<string, unknown>>).period_start!;
    expect(period.anyOf).toBeUndefined();
    expect(period.format).toBe('date');
    expect(period.title).toBe('Period start');
  });

  it('keeps fields named like JSON Schema keywords (a policy has a description and rules with a pattern)', () => {
    const policy = bodySchema('/api/v1/content-policies', 'post')!;
    expect(Object.keys(policy.properties as object)).toContain('description');
    expect((policy.properties as Record<string, { type?: string }>).description!.type).toBe('string');
  });

  it('names each exporter kind of the create form by its type', () => {
    const exporter = bodySchema('/api/v1/exporters', 'post')!;
    const choices = exporter.oneOf as Array<{ title?: string; properties: { type: { default?: string } } }>;
    expect(choices.map((c) => c.title)).toContain('webhook');
    expect(choices.map((c) => c.properties.type.default)).toEqual(choices.map((c) => c.title));
  });
});
