import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { buildCustomResourceDefinitions, specSchema } from './build.js';
import { renderCustomResourceDefinition } from './render.js';
import type { JsonSchema } from './openapi.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

t.test('crds/ and the chart hold what `npm run gen` writes now', async (t) => {
  for (const { fileName, crd } of buildCustomResourceDefinitions()) {
    for (const folder of ['crds', 'charts/palisade/crds']) {
      let onDisk = '';
      try {
        onDisk = readFileSync(join(repoRoot, folder, fileName), 'utf8');
      } catch {
        // missing: reported below
      }
      t.equal(onDisk, renderCustomResourceDefinition(crd), `${folder}/${fileName} is current (run npm run gen)`);
    }
  }
});

const props = (s: JsonSchema) => s.properties!;
const rules = (s: JsonSchema) => ((s['x-kubernetes-validations'] as { rule: string }[] | undefined) ?? []).map((r) => r.rule);

t.test('Provider: camelCase fields, defaults, enums, ranges, secrets by reference, CEL', async (t) => {
  const spec = specSchema('Provider');
  t.same(spec.required, ['providerType', 'matchType', 'matchValue', 'targetBaseUrl'], 'name and tenant are not required');
  t.notOk(props(spec).tenantId, 'the tenant comes from the namespace');
  t.equal(props(spec).requestTimeoutMs!.default, 30000);
  t.equal(props(spec).priority!.minimum, 1);
  t.equal(props(spec).priority!.maximum, 1000);
  t.ok(props(spec).providerType!.enum!.includes('vendor_a'));
  t.equal(props(spec).mappingPreset!.nullable, true);
  const auth = props(spec).upstreamAuth!;
  t.same(auth.default, { type: 'passthrough' });
  t.same(auth.properties!.type!.enum, ['passthrough', 'bearer', 'api_key_header', 'oauth2_client_credentials']);
  t.notOk(auth.properties!.token, 'no secret value in the spec');
  t.same(auth.properties!.tokenSecretRef!.required, ['name', 'key']);
  t.ok(auth.properties!.clientSecretRef);
  t.notOk(auth.properties!.header!.default, 'a default of one branch is not applied to the others');
  t.ok(rules(auth).includes("self.type != 'bearer' || (has(self.tokenSecretRef))"));
  t.ok(rules(spec).includes('has(self.mappingPreset) || has(self.mappingCustom)'));
  t.notOk(JSON.stringify(spec).includes('(?='), 'no lookaround regex (RE2)');
  t.notOk(JSON.stringify(spec).includes('"oneOf"') || JSON.stringify(spec).includes('"anyOf"') || JSON.stringify(spec).includes('"const"'), 'structural');
});

t.test('SecurityProfile: references by name, nested defaults, map keys as CEL', async (t) => {
  const spec = specSchema('SecurityProfile');
  t.same(spec.required, ['providerRef']);
  t.notOk(props(spec).providerId);
  t.equal(props(spec).contentPolicyRefs!['x-kubernetes-list-type'], 'map');
  t.equal(props(spec).blockStatusCode!.default, 451);
  t.equal(props(props(spec).threatDetection!).jailbreakThreshold!.default, 0.8);
  const thresholds = props(props(spec).contentSafety!).categoryThresholds!;
  t.equal(thresholds.maxProperties, 9);
  t.match(rules(thresholds)[0], /^self\.all\(k, k in \[/);
});

t.test('ContentPolicy and EventExporter: cross-field rules, union merged', async (t) => {
  t.ok(rules(specSchema('ContentPolicy')).some((r) => r.includes("self.type != 'language'")));
  const exporter = specSchema('EventExporter');
  t.same(props(exporter).type!.enum, ['syslog', 'cef', 'webhook', 'kafka', 'file']);
  const config = props(exporter).config!;
  t.ok(config.properties!.saslPasswordSecretRef);
  t.notOk(config.properties!.saslPassword);
  t.equal(config.properties!.headersFrom!.type, 'array');
  t.equal(config.properties!.maxRetries!.maximum, 10);
  t.notOk(config.properties!.maxRetries!.default, 'type-specific defaults are left to the model');
  t.equal(props(exporter).enabled!.default, true, 'common defaults stay');
  t.ok(rules(exporter).includes("self.type != 'webhook' || (has(self.config) && has(self.config.url))"));
  t.ok(rules(exporter).includes("!(has(self.config) && has(self.config.brokers)) || self.type == 'kafka'"));
});

t.test('every CRD has the status subresource and printer columns', async (t) => {
  for (const { crd } of buildCustomResourceDefinitions()) {
    const version = (crd.spec as { versions: Array<Record<string, unknown>> }).versions[0]!;
    t.same(version.subresources, { status: {} });
    const columns = (version.additionalPrinterColumns as { name: string }[]).map((c) => c.name);
    for (const name of ['Ready', 'Status', 'Age']) t.ok(columns.includes(name), `${name} column`);
  }
});
