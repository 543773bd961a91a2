// `npm run gen`: writes crds/<plural>.palisade.io.yaml at the repository root and the same files into
// the Helm chart's crds/ folder (Helm installs those before the templates).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCustomResourceDefinitions } from './build.js';
import { renderCustomResourceDefinition } from './render.js';

/** operator/src/crd or operator/dist/crd → the repository root. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

export function writeCustomResourceDefinitions(root = REPO_ROOT): string[] {
  const written: string[] = [];
  for (const folder of [join(root, 'crds'), join(root, 'charts/palisade/crds')]) {
    mkdirSync(folder, { recursive: true });
    for (const { fileName, crd } of buildCustomResourceDefinitions()) {
      const path = join(folder, fileName);
      writeFileSync(path, renderCustomResourceDefinition(crd));
      written.push(path);
    }
  }
  return written;
}

for (const path of writeCustomResourceDefinitions()) console.log(`wrote ${path}`);
