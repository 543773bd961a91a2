// examples/ are valid configuration: each custom resource, turned back into the admin API's
// snake_case body (refs resolved the way the operator resolves them), passes the same core model the
// API validates with; every ref names an object of the examples; and, once crds/ exists, every resource
// matches its CRD's schema. The kind end-to-end script is at least valid bash.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import t from 'tap';
import { parseAllDocuments } from 'yaml';
import { ContentPolicyCreate, ExporterCreate, ProfileCreate, ProviderCreate } from '@palisade/core';
import type { KubeObject } from '@palisade/testing';

const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url));
const CRDS = fileURLToPath(new URL('../palisade/crds/', import.meta.url));

const objects: KubeObject[] = readdirSync(EXAMPLES)
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .flatMap((f) => parseAllDocuments(readFileSync(join(EXAMPLES, f), 'utf8')).map((d) => d.toJS() as KubeObject))
  .filter(Boolean);

const MODELS = { Provider: ProviderCreate, SecurityProfile: ProfileCreate, ContentPolicy: ContentPolicyCreate, EventExporter: ExporterCreate } as const;
type Kind = keyof typeof MODELS;

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function find(kind: string, namespace: string | undefined, name: string): KubeObject | undefined {
  return objects.find((o) => o.kind === kind && o.metadata.name === name && o.metadata.namespace === namespace);
}

/** The CRD convention (DECISIONS.md): camelCase of the model's fields; `xSecretRef` holds secret `x`. */
function toApiBody(value: unknown, namespace: string | undefined, problems: string[]): unknown {
  if (Array.isArray(value)) return value.map((v) => toApiBody(v, namespace, problems));
  if (!isMap(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const ref = /^(.+)SecretRef$/.exec(key);
    if (ref && isMap(v)) {
      const secret = find('Secret', namespace, String(v.name));
      const data = { ...(secret?.stringData as object), ...Object.fromEntries(Object.entries((secret?.data as object) ?? {}).map(([k, b]) => [k, Buffer.from(String(b), 'base64').toString()])) } as Record<string, string>;
      if (!secret || data[String(v.key)] === undefined) problems.push(`${key} names no Secret ${String(v.name)} with key ${String(v.key)}`);
      out[snake(ref[1]!)] = data[String(v.key)];
    } else {
      out[snake(key)] = toApiBody(v, namespace, problems);
    }
  }
  return out;
}

const uuidFor = (name: string) => `00000000-0000-4000-8000-${Buffer.from(name).toString('hex').padEnd(12, '0').slice(0, 12)}`;

t.test('the examples hold one resource of each palisade.io kind at least', async (t) => {
  for (const kind of Object.keys(MODELS)) t.ok(objects.some((o) => o.kind === kind && o.apiVersion === 'palisade.io/v1alpha1'), kind);
});

t.test('each resource is a valid admin API body once converted, and its refs resolve', async (t) => {
  for (const object of objects.filter((o): o is KubeObject & { kind: Kind } => o.kind in MODELS)) {
    const problems: string[] = [];
    const namespace = object.metadata.namespace;
    t.ok(namespace && find('Namespace', undefined, namespace), `${object.metadata.name}: its namespace is created by the examples`);
    const spec = { ...(object.spec as Record<string, unknown>) };
    const { providerRef, contentPolicyRefs } = spec as { providerRef?: { name: string }; contentPolicyRefs?: Array<{ name: string }> };
    delete spec.providerRef;
    delete spec.contentPolicyRefs;
    const body = toApiBody(spec, namespace, problems) as Record<string, unknown>;
    body.name ??= object.metadata.name;
    if (object.kind === 'SecurityProfile') {
      t.ok(providerRef && find('Provider', namespace, providerRef.name), `${object.metadata.name}: providerRef names a Provider`);
      for (const ref of contentPolicyRefs ?? []) t.ok(find('ContentPolicy', namespace, ref.name), `${object.metadata.name}: contentPolicyRefs ${ref.name}`);
      body.provider_id = uuidFor(providerRef?.name ?? '');
      body.content_policy_ids = (contentPolicyRefs ?? []).map((r) => uuidFor(r.name));
    }
    t.same(problems, [], `${object.kind}/${object.metadata.name}: secret refs resolve`);
    const parsed = MODELS[object.kind].safeParse(body);
    t.ok(parsed.success, `${object.kind}/${object.metadata.name}: ${parsed.success ? 'valid' : JSON.stringify(parsed.error.issues)}`);
  }
  const profile = objects.find((o) => o.kind === 'SecurityProfile')!;
  const parsed = ProfileCreate.parse({ ...(toApiBody(profile.spec, undefined, []) as object), name: 'x', provider_id: uuidFor('x') });
  t.equal(parsed.pii.mode, 'mask', 'the profile masks personal data');
  t.equal(parsed.threat_detection.jailbreak_threshold, 0.75, 'with a jailbreak threshold');
  const policy = ContentPolicyCreate.parse({ ...(toApiBody(objects.find((o) => o.kind === 'ContentPolicy')!.spec, undefined, []) as object), name: 'x' });
  t.same(policy.rules.map((r) => r.kind).sort(), ['keyword', 'regex'], 'the policy has a keyword and a regex rule');
});

const crdFiles = existsSync(CRDS) ? readdirSync(CRDS).filter((f) => f.endsWith('.yaml')) : [];
const noCrds = crdFiles.length === 0 && 'charts/palisade/crds/ has no CRDs yet (the operator build copies them there)';

t.test('each resource matches its CRD schema', { skip: noCrds }, async (t) => {
  const files = crdFiles;
  // Kubernetes structural-schema keywords are annotations here, not validation.
  const ajv = new Ajv({ strict: false, allErrors: true });
  for (const keyword of ['x-kubernetes-preserve-unknown-fields', 'x-kubernetes-int-or-string', 'x-kubernetes-validations', 'x-kubernetes-list-type', 'x-kubernetes-map-type', 'x-kubernetes-embedded-resource']) ajv.addKeyword(keyword);
  const crds = files.flatMap((f) => parseAllDocuments(readFileSync(join(CRDS, f), 'utf8')).map((d) => d.toJS() as Record<string, any>));
  for (const object of objects.filter((o) => o.kind in MODELS)) {
    const [group, version] = object.apiVersion.split('/');
    const crd = crds.find((c) => c?.spec?.group === group && c.spec.names?.kind === object.kind);
    t.ok(crd, `${object.kind}: a CRD`);
    const schema = crd?.spec.versions.find((v: { name: string }) => v.name === version)?.schema?.openAPIV3Schema;
    if (!schema) continue;
    const validate = ajv.compile(schema.properties?.spec ?? schema);
    t.ok(validate(object.spec), `${object.kind}/${object.metadata.name}: ${ajv.errorsText(validate.errors)}`);
  }
});

t.test('kind-e2e.sh is valid bash and documents that it needs a cluster toolchain', async (t) => {
  const script = join(EXAMPLES, 'kind-e2e.sh');
  const check = spawnSync('bash', ['-n', script], { encoding: 'utf8' });
  t.equal(check.status, 0, check.stderr);
  const text = readFileSync(script, 'utf8');
  for (const step of ['kind create cluster', 'kind load docker-image', 'helm upgrade --install', 'kubectl apply', 'X-Service-Decision']) t.ok(text.includes(step), `does: ${step}`);
});
