import { describe, expect, it } from 'vitest';
import validator from '@rjsf/validator-ajv8';
import openapi from './openapi.json';
import { bodySchema, formSchemas, immutableFields, type OpenApiDoc } from './schemas';

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

  it("leaves out a field the update refuses (`not: {}`) and lists it as fixed at creation", () => {
    const update = bodySchema('/api/v1/exporters/{id}', 'put')!;
    expect(Object.keys(update.properties as object)).not.toContain('type');
    expect(immutableFields('/api/v1/exporters', '/api/v1/exporters/{id}')).toEqual(['type']);
    expect(immutableFields('/api/v1/providers', '/api/v1/providers/{id}')).toEqual(expect.arrayContaining(['provider_type', 'match_type']));
  });
});

describe('bodySchema memoisation', () => {
  it('converts each (path, method) once: every call returns the same object', () => {
    expect(bodySchema('/api/v1/users', 'post')).toBe(bodySchema('/api/v1/users', 'post'));
    expect(bodySchema('/api/v1/users/{id}', 'put')).not.toBe(bodySchema('/api/v1/users', 'post'));
    expect(immutableFields('/api/v1/users', '/api/v1/users/{id}')).toBe(immutableFields('/api/v1/users', '/api/v1/users/{id}'));
  });

  it('gives callers a frozen schema in tests, so that a caller changing it fails', () => {
    const policy = bodySchema('/api/v1/content-policies', 'post')!;
    const rules = (policy.properties as Record<string, { items: { properties: Record<string, unknown> } }>).rules!;
    expect(Object.isFrozen(policy)).toBe(true);
    expect(Object.isFrozen(rules.items.properties.pattern)).toBe(true);
    expect(() => { (policy.properties as Record<string, unknown>).name = {}; }).toThrow(TypeError);
    expect(() => (immutableFields('/api/v1/exporters', '/api/v1/exporters/{id}') as string[]).push('x')).toThrow(TypeError);
  });

  it('does not convert again on later calls (no pattern is compiled twice)', () => {
    const compiled = new Set<unknown>();
    const doc = {
      paths: { '/things': { post: { requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { code: { type: 'string', pattern: '^A' } } } } } } } } },
    } as unknown as OpenApiDoc;
    const RealRegExp = globalThis.RegExp;
    let compilations = 0;
    globalThis.RegExp = new Proxy(RealRegExp, { construct: (target, args) => { compilations += 1; return new target(...(args as [string])); } });
    try {
      const forms = formSchemas(doc, { freeze: false });
      for (let i = 0; i < 5; i++) compiled.add(forms.bodySchema('/things', 'post'));
    } finally {
      globalThis.RegExp = RealRegExp;
    }
    expect(compiled.size).toBe(1);
    expect(compilations).toBe(1);
  });

  it('every form schema of the document converts without error', () => {
    for (const [path, methods] of Object.entries((openapi as OpenApiDoc).paths)) {
      for (const method of ['post', 'put'] as const) {
        if (methods[method]?.requestBody) expect(bodySchema(path, method), `${method} ${path}`).toBeDefined();
      }
    }
  });
});
