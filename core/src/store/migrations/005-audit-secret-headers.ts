/**
 * Audit records written before the models marked secrets kept webhook exporter header values
 * (`Authorization: Bearer …`, `X-Api-Key: …`) in clear. Every such value is masked in place, as the
 * audit hook now does on write; nothing else in the records changes.
 */
export const sql = /* sql */ `
UPDATE audit_log
SET data = jsonb_set(
  data,
  '{request_body,config,headers}',
  (SELECT COALESCE(jsonb_object_agg(h.key, to_jsonb('***REDACTED***'::text)), '{}'::jsonb)
     FROM jsonb_each(data->'request_body'->'config'->'headers') AS h)
)
WHERE resource_type = 'exporters'
  AND jsonb_typeof(data->'request_body'->'config'->'headers') = 'object';
`;
