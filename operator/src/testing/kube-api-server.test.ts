// The test API server refuses what a real one refuses: objects that break the generated CRD's schema or
// its CEL rules, on create, update, patch and status writes; and it fills in the schema's defaults.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { parseAllDocuments } from 'yaml';
import { CustomObjectsApi, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { GROUP, KINDS, VERSION } from '../crd/kinds.js';
import { loadKubeConfig } from '../kube/client.js';
import { startTestKubeApiServer } from './kube-api-server.js';

const NS = 'team-a';
const provider = {
  providerType: 'vendor_a',
  matchType: 'url',
  matchValue: '/v1/**',
  targetBaseUrl: 'http://127.0.0.1:9',
  mappingPreset: 'vendor_a_chat_completions',
};

async function refusal(promise: Promise<unknown>): Promise<{ code: number; reason: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    const e = error as { code: number; body: string };
    const body = JSON.parse(e.body) as { reason: string; message: string };
    return { code: e.code, reason: body.reason, message: body.message };
  }
  throw new Error('the server accepted the object');
}

t.test('a manifest that breaks the CRD is refused with 422 Invalid', async (t) => {
  const server = await startTestKubeApiServer();
  t.teardown(() => server.close());
  const custom = loadKubeConfig({ server: server.url }).makeApiClient(CustomObjectsApi);
  const create = (plural: string, name: string, spec: unknown) =>
    custom.createNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: NS, plural, body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'x', metadata: { name }, spec } });

  const outOfRange = await refusal(create('providers', 'p', { ...provider, priority: 0 }));
  t.equal(outOfRange.code, 422);
  t.equal(outOfRange.reason, 'Invalid');
  t.match(outOfRange.message, /spec\.priority/, 'schema: minimum');

  const noPreset = await refusal(create('providers', 'p', { ...provider, mappingPreset: undefined }));
  t.match(noPreset.message, /one of mappingPreset or mappingCustom is required/, 'CEL rule of the spec');

  const noLanguages = await refusal(create('contentpolicies', 'c', { type: 'language', languages: [] }));
  t.match(noLanguages.message, /a language policy needs at least one language/, 'CEL rule with size()');

  const noUrl = await refusal(create('eventexporters', 'e', { type: 'webhook', config: { method: 'POST' } }));
  t.match(noUrl.message, /config\.url is required for type webhook/, 'CEL rule of a merged union');

  const wrongKey = await refusal(create('securityprofiles', 's', { providerRef: { name: 'p' }, contentSafety: { categoryThresholds: { nonsense: 0.5 } } }));
  t.match(wrongKey.message, /keys must be one of/, 'CEL rule over map keys');

  const missingSpec = await refusal(custom.createNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: NS, plural: 'providers', body: { metadata: { name: 'bare' } } }));
  t.match(missingSpec.message, /spec/, 'spec is required');
  t.equal(server.get('providers', NS, 'p'), undefined, 'nothing stored');

  // A valid one is stored with the schema's defaults filled in.
  await create('providers', 'p', provider);
  const stored = server.get('providers', NS, 'p')!;
  t.equal((stored.spec as { requestTimeoutMs: number }).requestTimeoutMs, 30000, 'defaults applied');
  t.same((stored.spec as { upstreamAuth: unknown }).upstreamAuth, { type: 'passthrough' });

  // Patches are checked too: the stored object stays as it was.
  const badPatch = await refusal(
    custom.patchNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: NS, plural: 'providers', name: 'p', body: [{ op: 'replace', path: '/spec/matchType', value: 'nowhere' }] }),
  );
  t.equal(badPatch.code, 422);
  t.match(badPatch.message, /spec\.matchType/);
  t.equal((server.get('providers', NS, 'p')!.spec as { matchType: string }).matchType, 'url');

  const failedTest = await refusal(
    custom.patchNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: NS, plural: 'providers', name: 'p', body: [{ op: 'test', path: '/spec/matchValue', value: '/other' }] }),
  );
  t.equal(failedTest.code, 422, 'a failed JSON patch test operation');

  // The status subresource is held to the status schema: a condition message over its maxLength is refused.
  const condition = { type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'Published', message: 'x'.repeat(32769) };
  const longStatus = await refusal(
    custom.patchNamespacedCustomObjectStatus({ group: GROUP, version: VERSION, namespace: NS, plural: 'providers', name: 'p', body: { status: { conditions: [condition] } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch)),
  );
  t.match(longStatus.message, /status\.conditions\.0\.message/);
});

t.test('the kubectl examples (examples) are admitted: the rules refuse only what they should', async (t) => {
  const server = await startTestKubeApiServer();
  t.teardown(() => server.close());
  const custom = loadKubeConfig({ server: server.url }).makeApiClient(CustomObjectsApi);
  const folder = fileURLToPath(new URL('../../../examples/', import.meta.url));
  const documents = readdirSync(folder)
    .filter((f) => f.endsWith('.yaml'))
    .flatMap((f) => parseAllDocuments(readFileSync(join(folder, f), 'utf8')).map((d) => d.toJS() as { kind: string; metadata: { name: string; namespace: string } } | null));
  let admitted = 0;
  for (const object of documents) {
    const kind = KINDS.find((k) => k.kind === object?.kind);
    if (!object || !kind) continue;
    await custom.createNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: object.metadata.namespace, plural: kind.plural, body: object });
    t.ok(server.get(kind.plural, object.metadata.namespace, object.metadata.name), `${object.kind} ${object.metadata.name}`);
    admitted++;
  }
  t.ok(admitted >= KINDS.length, 'one of each kind at least');
});
