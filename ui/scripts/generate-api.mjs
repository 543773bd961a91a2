// Writes the Admin API's OpenAPI document (built in-process from the compiled Admin API: no server, no
// database) to web/src/api/openapi.json and its TypeScript types to web/src/api/schema.d.ts, so the
// app's client, types and forms all come from the one contract. Run by `npm run build` after tsc.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { adminOpenApiDocument } from '@palisade/admin';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'web', 'src', 'api');
mkdirSync(out, { recursive: true });
const document = await adminOpenApiDocument();
writeFileSync(join(out, 'openapi.json'), JSON.stringify(document));
const ast = await openapiTS(document, { exportType: false });
writeFileSync(join(out, 'schema.d.ts'), `// Generated from the Admin API's /openapi.json by ui/scripts/generate-api.mjs; do not edit.\n${astToString(ast)}`);
console.log(`Admin API contract: ${Object.keys(document.paths ?? {}).length} paths -> ${out}`);
