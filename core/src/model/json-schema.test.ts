// The CRD generator turns these models into OpenAPI schemas with z.toJSONSchema: every exported schema
// must convert, in input and output mode.
import t from 'tap';
import { z } from 'zod';
import * as model from './index.js';

t.test('every exported schema converts to JSON Schema', async (t) => {
  const schemas = Object.entries(model).filter(([, v]) => v instanceof z.ZodType) as [string, z.ZodType][];
  t.ok(schemas.length > 50, `${schemas.length} schemas`);
  for (const [name, schema] of schemas) {
    for (const io of ['input', 'output'] as const) {
      t.doesNotThrow(() => z.toJSONSchema(schema, { io }), `${name} (${io})`);
    }
  }
});

t.test('the CRD specs carry their defaults', async (t) => {
  const props = (s: z.ZodType) => (z.toJSONSchema(s, { io: 'input' }) as { properties: Record<string, Record<string, unknown>> }).properties;
  t.equal(props(model.ProviderSpec).request_timeout_ms?.default, 30000);
  t.equal(props(model.ProfileSpec).block_status_code?.default, 451);
  t.equal(props(model.ContentPolicySpec).case_sensitive?.default, false);
  t.equal(props(model.WebhookConfig).max_retries?.default, 3);
  t.equal(props(model.RetentionSettingsSpec).audit_retention_days?.minimum, 1095);
});
