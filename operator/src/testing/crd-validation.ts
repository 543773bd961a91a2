// What the API server does with a custom resource before it stores it: apply the schema's defaults,
// check the object against the CRD's OpenAPI schema (ajv) and evaluate the CRD's CEL rules
// (x-kubernetes-validations, with @marcbachmann/cel-js), so that the test API server refuses a bad
// manifest with 422 Invalid as a real one would. The CRDs are the generated ones (crd/build.ts).
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { parse as parseCel, type ParseResult } from '@marcbachmann/cel-js';
import { buildCustomResourceDefinitions } from '../crd/build.js';
import type { CelRule, JsonSchema } from '../crd/openapi.js';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

/** Kubernetes extensions of OpenAPI: known keywords to ajv, enforced here (CEL) or not needed by these tests. */
const KUBERNETES_KEYWORDS = [
  'x-kubernetes-validations',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-int-or-string',
  'x-kubernetes-embedded-resource',
];

export class ManifestInvalidError extends Error {
  constructor(readonly causes: string[]) {
    super(causes.join(', '));
  }
}

interface CompiledKind {
  schema: JsonSchema;
  validate: ValidateFunction;
}

export interface CustomResourceValidator {
  /** Applies defaults to `object` in place and throws ManifestInvalidError listing every violation. */
  admit(kind: string, object: Record<string, unknown>): void;
}

export function createCustomResourceValidator(): CustomResourceValidator {
  const ajv = new Ajv({ allErrors: true, useDefaults: true, strict: true, strictRequired: false, allowUnionTypes: true });
  addFormats(ajv);
  ajv.addVocabulary(KUBERNETES_KEYWORDS);
  const kinds = new Map<string, CompiledKind>();
  for (const { crd } of buildCustomResourceDefinitions()) {
    const spec = crd.spec as { names: { kind: string }; versions: Array<{ schema: { openAPIV3Schema: JsonSchema } }> };
    const schema = spec.versions[0]!.schema.openAPIV3Schema;
    kinds.set(spec.names.kind, { schema, validate: ajv.compile(schema) });
  }
  const rules = new Map<string, ParseResult>();
  const compiled = (rule: string) => {
    let parsed = rules.get(rule);
    if (!parsed) rules.set(rule, (parsed = parseCel(rule)));
    return parsed;
  };

  /** Every CEL rule of the schema evaluated where the object has a value (the API server skips absent ones). */
  function celViolations(schema: JsonSchema, value: unknown, path: string, out: string[]) {
    if (value === undefined || value === null) return;
    for (const { rule, message } of (schema['x-kubernetes-validations'] as CelRule[] | undefined) ?? []) {
      let passed: unknown;
      try {
        passed = compiled(rule)({ self: value });
      } catch (error) {
        passed = `error: ${(error as Error).message}`;
      }
      if (passed !== true) out.push(`${path}: Invalid value: "object": ${typeof passed === 'string' ? passed : message}`);
    }
    if (Array.isArray(value)) {
      if (schema.items) value.forEach((item, i) => celViolations(schema.items!, item, `${path}[${i}]`, out));
      return;
    }
    if (typeof value !== 'object') return;
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      const childSchema = schema.properties?.[key] ?? (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
      if (childSchema) celViolations(childSchema, child, `${path}.${key}`, out);
    }
  }

  const describe = (error: ErrorObject) => `${error.instancePath.slice(1).replace(/\//g, '.') || '<root>'}: Invalid value: ${error.message ?? 'invalid'}`;

  return {
    admit(kind, object) {
      const known = kinds.get(kind);
      if (!known) return;
      const causes: string[] = [];
      if (!known.validate(object)) causes.push(...(known.validate.errors ?? []).map(describe));
      for (const part of ['spec', 'status'] as const) {
        const schema = known.schema.properties?.[part];
        if (schema) celViolations(schema, object[part], part, causes);
      }
      if (causes.length > 0) throw new ManifestInvalidError(causes);
    },
  };
}
