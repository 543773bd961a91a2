// charts/palisade rendered as `helm template` would (go-template.ts; no helm binary is needed) and
// checked against the spec: every component's Deployment and Service with its port and probes, GPU
// requests, credentials, NetworkPolicies, the operator's RBAC, the guard model, and the values schema.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import t from 'tap';
import { envOf, find, ingressAllowed, ofKind, podLabels, podSpec, readChartValues, renderChart, type KubeObject } from '@palisade/testing';

const CHART = fileURLToPath(new URL('../palisade/', import.meta.url));

/** The spec's "Components" table (and the components the CLI adds): command, port, liveness path. */
const SPEC_COMPONENTS = [
  { command: 'gateway', port: 8085, liveness: '/health/live' },
  { command: 'registry', port: 8000, liveness: '/health/live' },
  { command: 'admin-api', port: 8001, liveness: '/health/live' },
  { command: 'decision-point', port: 8086, liveness: '/health/live' },
  { command: 'normalizer', port: 8081, liveness: '/health/live' },
  { command: 'pii', port: 8084, liveness: '/health/live' },
  { command: 'translation', port: 8087, liveness: '/health/live' },
  { command: 'threat', port: 8090, liveness: '/health/live' },
  { command: 'content-safety', port: 8088, liveness: '/health/live' },
  { command: 'content-policy', port: 8089, liveness: '/health' },
  { command: 'event-exporter', port: 8091, liveness: '/health/live' },
  { command: 'bundle-store', port: 9000, liveness: '/health/live' },
  { command: 'event-writer', liveness: '/health/live' },
  { command: 'operator', liveness: '/health/live' },
  { command: 'idp', port: 8080, liveness: '/health/live' },
  { command: 'auth-proxy', port: 4180, liveness: '/health/live' },
  { command: 'ui', port: 4200, liveness: '/health/live' },
] as const;

const GPU_COMPONENTS = {
  threat: 'THREAT_DETECTOR_ML_DEVICE',
  translation: 'TRANSLATION_SERVICE_MODEL_DEVICE',
  'content-safety': 'CONTENT_SAFETY_ML_DEVICE',
} as const;

/** Detectors only the gateway may call (translation: also the normalizer). */
const DETECTORS = ['pii', 'threat', 'content-policy', 'decision-point', 'translation', 'content-safety'] as const;

/** The least values an install needs: where PostgreSQL and Redis are. */
const REQUIRED = {
  externalDatabase: { host: 'pg.db.svc', password: 'p@ss word/1' },
  externalRedis: { host: 'redis.db.svc' },
};

function render(values: Record<string, unknown> = {}) {
  return renderChart(CHART, { releaseName: 'pal', namespace: 'llm', values: { ...REQUIRED, ...values } });
}

const deployment = (objects: KubeObject[], command: string) => find(objects, 'Deployment', `pal-palisade-${command}`);
const container = (objects: KubeObject[], command: string) => podSpec(deployment(objects, command)!).containers[0]!;

t.test('every component of the spec table has a Deployment and a Service with its port and probes', async (t) => {
  const { objects } = render();
  for (const spec of SPEC_COMPONENTS) {
    const name = `pal-palisade-${spec.command}`;
    const dep = deployment(objects, spec.command);
    const svc = find(objects, 'Service', name);
    t.ok(dep, `${spec.command}: Deployment`);
    t.ok(svc, `${spec.command}: Service`);
    if (!dep || !svc) continue;
    const c = podSpec(dep).containers[0]!;
    t.same(c.args, [spec.command], `${spec.command}: runs palisade ${spec.command}`);
    t.equal(c.image, 'ghcr.io/palisade/palisade:0.1.0', `${spec.command}: image defaults to appVersion`);
    const port = c.ports?.find((p) => p.name === 'http')?.containerPort;
    if ('port' in spec) t.equal(port, spec.port, `${spec.command}: container port`);
    t.equal(envOf(c).get(`PALISADE_PORT_${spec.command.toUpperCase().replace(/-/g, '_')}`)?.value, String(port), `${spec.command}: listens where the chart says`);
    t.equal(c.livenessProbe?.httpGet?.path, spec.liveness, `${spec.command}: liveness path`);
    t.equal(c.livenessProbe?.httpGet?.port, 'http');
    t.equal(c.startupProbe?.httpGet?.path, spec.liveness, `${spec.command}: startup probe`);
    t.equal(c.readinessProbe?.httpGet?.path, '/health/ready', `${spec.command}: readiness path`);
    const ports = (svc.spec as { ports: Array<{ port: number; targetPort: string }> }).ports;
    t.same(ports.map((p) => [p.port, p.targetPort]), [[port, 'http']], `${spec.command}: Service port`);
    t.same((svc.spec as { selector: Record<string, string> }).selector, {
      'app.kubernetes.io/name': 'palisade',
      'app.kubernetes.io/instance': 'pal',
      'app.kubernetes.io/component': spec.command,
    });
    t.match(podLabels(dep), (svc.spec as { selector: Record<string, string> }).selector, `${spec.command}: Service selects its pods`);
    t.equal(dep.metadata.namespace, 'llm');
  }
  t.notOk(deployment(objects, 'mock-llm'), 'the mock LLM is off by default');
  t.notOk(deployment(objects, 'guard-model'), 'the guard model is off by default');
});

t.test('GPU detectors request nvidia.com/gpu with *_DEVICE=cuda, a toleration and the node selector', async (t) => {
  const { objects } = render({ gpu: { nodeSelector: { 'nvidia.com/gpu.present': 'true' } }, components: { threat: { nodeSelector: { pool: 'ml' } } } });
  for (const [command, variable] of Object.entries(GPU_COMPONENTS)) {
    const c = container(objects, command);
    t.equal(c.resources?.limits?.['nvidia.com/gpu'], 1, `${command}: one GPU`);
    t.ok(c.resources?.requests?.memory, `${command}: keeps its own requests`);
    t.equal(envOf(c).get(variable)?.value, 'cuda', `${command}: ${variable}=cuda`);
    const pod = podSpec(deployment(objects, command)!);
    t.match(pod.nodeSelector, { 'nvidia.com/gpu.present': 'true' }, `${command}: GPU node selector`);
    t.ok(pod.tolerations?.some((tol) => tol.key === 'nvidia.com/gpu' && tol.operator === 'Exists'), `${command}: tolerates GPU taints`);
  }
  t.same(podSpec(deployment(objects, 'threat')!).nodeSelector, { pool: 'ml', 'nvidia.com/gpu.present': 'true' }, 'own selector merged with the GPU one');
  for (const other of ['gateway', 'pii', 'registry', 'content-policy']) {
    const c = container(objects, other);
    t.notOk(c.resources?.limits?.['nvidia.com/gpu'], `${other}: no GPU`);
    t.notOk(podSpec(deployment(objects, other)!).tolerations, `${other}: no GPU toleration`);
  }

  const cpu = render({ gpu: { enabled: false } }).objects;
  for (const [command, variable] of Object.entries(GPU_COMPONENTS)) {
    const c = container(cpu, command);
    t.notOk(c.resources?.limits?.['nvidia.com/gpu'], `${command}: no GPU with gpu.enabled=false`);
    t.notOk(envOf(c).has(variable), `${command}: runs on the CPU default`);
    t.notOk(podSpec(deployment(cpu, command)!).tolerations, `${command}: no toleration`);
  }
  const one = render({ components: { translation: { gpu: { enabled: false } } } }).objects;
  t.notOk(container(one, 'translation').resources?.limits?.['nvidia.com/gpu'], 'a single component can leave the GPU');
  t.equal(container(one, 'threat').resources?.limits?.['nvidia.com/gpu'], 1);
});

t.test('the gateway reaches each detector and the bundle store through their Services', async (t) => {
  const { objects } = render();
  const env = envOf(container(objects, 'gateway'));
  const expected = {
    PII_DETECTOR_URL: 'pii',
    THREAT_DETECTOR_URL: 'threat',
    CONTENT_POLICY_URL: 'content-policy',
    DECISION_POINT_URL: 'decision-point',
    TRANSLATION_SERVICE_URL: 'translation',
    CONTENT_SAFETY_URL: 'content-safety',
    BUNDLE_STORE_URL: 'bundle-store',
  };
  for (const [variable, command] of Object.entries(expected)) {
    const url = new URL(env.get(variable)?.value ?? 'http://missing');
    const svc = find(objects, 'Service', url.hostname);
    t.ok(svc, `${variable} names a Service (${url.hostname})`);
    t.equal(url.hostname, `pal-palisade-${command}`);
    const port = (svc?.spec as { ports: Array<{ port: number }> } | undefined)?.ports[0]?.port;
    t.equal(Number(url.port), port, `${variable} uses the Service port`);
  }
  t.equal(envOf(container(objects, 'normalizer')).get('TRANSLATION_SERVICE_URL')?.value, 'http://pal-palisade-translation:8087');

  const without = envOf(container(render({ components: { contentSafety: { enabled: false } } }).objects, 'gateway'));
  t.notOk(without.has('CONTENT_SAFETY_URL'), 'a disabled detector is not wired');
  t.throws(() => render({ components: { gateway: { connectsTo: { PII_DETECTOR_URL: 'nosuch' } } } }), /names no component "nosuch"/);
});

t.test('credentials come from Secrets, each component gets only what it reads', async (t) => {
  const { objects } = render();
  const internal = find(objects, 'Secret', 'pal-palisade-internal')!;
  t.ok(internal, 'internal Secret');
  const data = internal.data as Record<string, string>;
  t.match(Buffer.from(data['internal-service-token']!, 'base64').toString(), /^[A-Za-z0-9]{48}$/, 'a generated token');
  t.match(Buffer.from(data['secret-key']!, 'base64').toString(), /^[A-Za-z0-9]{48}$/, 'a generated secret key');
  t.equal(internal.metadata.annotations?.['helm.sh/resource-policy'], 'keep');

  const db = find(objects, 'Secret', 'pal-palisade-database')!;
  const url = (db.stringData as Record<string, string>)['database-url']!;
  t.equal(url, 'postgresql://palisade:p%40ss+word%2F1@pg.db.svc:5432/palisade?sslmode=disable');
  t.equal(new URL(url).hostname, 'pg.db.svc');
  t.equal((find(objects, 'Secret', 'pal-palisade-redis')!.stringData as Record<string, string>)['redis-url'], 'redis://redis.db.svc:6379/0');

  const secretNames = new Set(ofKind(objects, 'Secret').map((s) => s.metadata.name));
  for (const dep of ofKind(objects, 'Deployment')) {
    for (const e of podSpec(dep).containers[0]!.env ?? []) {
      const ref = e.valueFrom?.secretKeyRef;
      if (!ref) continue;
      t.ok(secretNames.has(ref.name), `${dep.metadata.name}: ${e.name} refers to a rendered Secret`);
      const secret = find(objects, 'Secret', ref.name)!;
      t.ok(ref.key in ((secret.data ?? secret.stringData) as object), `${dep.metadata.name}: ${e.name} key ${ref.key} exists`);
    }
  }
  for (const command of DETECTORS) {
    const env = envOf(container(objects, command));
    t.notOk(env.has('DATABASE_URL') || env.has('REDIS_URL') || env.has('PALISADE_SECRET_KEY'), `${command}: no database, Redis or secret key`);
    t.ok(env.get('INTERNAL_SERVICE_TOKEN')?.valueFrom?.secretKeyRef, `${command}: internal token from the Secret`);
  }
  // The bundle store holds every tenant's configuration: it always requires the token, and the gateway sends it.
  for (const command of ['bundle-store', 'gateway']) {
    t.equal(envOf(container(objects, command)).get('INTERNAL_SERVICE_TOKEN')?.valueFrom?.secretKeyRef?.name, 'pal-palisade-internal', `${command}: the generated internal token`);
  }
  for (const command of ['registry', 'admin-api', 'bundle-store', 'event-writer', 'event-exporter', 'operator']) {
    t.equal(envOf(container(objects, command)).get('DATABASE_URL')?.valueFrom?.secretKeyRef?.name, 'pal-palisade-database', `${command}: PostgreSQL`);
  }
  t.ok(envOf(container(objects, 'gateway')).get('REDIS_URL'), 'gateway: Redis');
  t.ok(envOf(container(objects, 'gateway')).get('PALISADE_SECRET_KEY'), 'gateway: decrypts upstream credentials');

  const tls = render({ externalRedis: { host: 'r', password: 'x:y', tls: true, db: 2 }, internal: { internalServiceToken: 'tok' } }).objects;
  t.equal((find(tls, 'Secret', 'pal-palisade-redis')!.stringData as Record<string, string>)['redis-url'], 'rediss://:x%3Ay@r:6379/2');
  t.equal((find(tls, 'Secret', 'pal-palisade-internal')!.data as Record<string, string>)['internal-service-token'], Buffer.from('tok').toString('base64'));

  const kept = renderChart(CHART, {
    values: REQUIRED,
    lookup: (_v, kind, _ns, name) => (kind === 'Secret' && name === 'palisade-internal' ? { data: { 'internal-service-token': 'b2xk', 'secret-key': 'a2V5' } } : undefined),
  }).objects;
  t.same(find(kept, 'Secret', 'palisade-internal')!.data, { 'internal-service-token': 'b2xk', 'secret-key': 'a2V5' }, 'an upgrade keeps generated values');

  const existing = render({
    externalDatabase: { existingSecret: 'my-db', host: '' },
    externalRedis: { existingSecret: 'my-redis', host: '' },
    internal: { existingSecret: 'my-internal' },
    auth: { existingSecret: 'my-auth' },
  }).objects;
  t.same(ofKind(existing, 'Secret'), [], 'no chart Secrets with existing ones');
  const env = envOf(container(existing, 'registry'));
  t.equal(env.get('DATABASE_URL')?.valueFrom?.secretKeyRef?.name, 'my-db');
  t.equal(env.get('REDIS_URL')?.valueFrom?.secretKeyRef?.name, 'my-redis');
  t.equal(env.get('INTERNAL_SERVICE_TOKEN')?.valueFrom?.secretKeyRef?.name, 'my-internal');

  t.throws(() => renderChart(CHART, { values: { externalRedis: { host: 'r' } } }), /externalDatabase.host .* is required/);
  t.throws(() => renderChart(CHART, { values: { externalDatabase: { host: 'p' } } }), /externalRedis.host .* is required/);
});

t.test('NetworkPolicies: only the gateway reaches the detectors', async (t) => {
  const { objects } = render();
  const policies = ofKind(objects, 'NetworkPolicy');
  const labels = (command: string) => podLabels(deployment(objects, command)!);
  const outsider = { app: 'somebody-else' };
  for (const command of DETECTORS) {
    t.ok(ingressAllowed(policies, labels(command), labels('gateway'), 'http'), `gateway → ${command}`);
    t.notOk(ingressAllowed(policies, labels(command), outsider, 'http'), `outsider ↛ ${command}`);
    t.notOk(ingressAllowed(policies, labels(command), labels('registry'), 'http'), `registry ↛ ${command}`);
    t.notOk(ingressAllowed(policies, labels(command), labels('admin-api'), 'http'), `admin-api ↛ ${command}`);
    t.equal(ingressAllowed(policies, labels(command), labels('normalizer'), 'http'), command === 'translation', `normalizer → ${command} only for translation`);
  }
  t.ok(ingressAllowed(policies, labels('bundle-store'), labels('gateway'), 'http'), 'gateway → bundle store');
  t.notOk(ingressAllowed(policies, labels('bundle-store'), outsider, 'http'));
  t.ok(ingressAllowed(policies, labels('gateway'), outsider, 'http'), 'the gateway is open');
  t.notOk(ingressAllowed(policies, labels('admin-api'), outsider, 'http'), 'the admin API is not open');
  t.ok(ingressAllowed(policies, labels('admin-api'), labels('auth-proxy'), 'http'), 'the authentication proxy reaches the admin API');
  t.notOk(ingressAllowed(policies, labels('admin-api'), labels('gateway'), 'http'), 'nobody else does');
  t.ok(ingressAllowed(policies, labels('auth-proxy'), outsider, 'http'), 'the proxy is open');
  t.ok(ingressAllowed(policies, labels('ui'), labels('auth-proxy'), 'http'), 'the proxy reaches the Admin UI');
  t.notOk(ingressAllowed(policies, labels('ui'), outsider, 'http'), 'the Admin UI is not open: only behind the login');
  t.ok(ingressAllowed(policies, labels('admin-api'), labels('ui'), 'http'), 'the Admin UI reaches the Admin API (it forwards /api/*)');
  t.ok(ingressAllowed(policies, labels('idp'), outsider, 'http'), 'the IdP is open (browsers log in there)');
  t.notOk(ingressAllowed(policies, labels('event-writer'), labels('gateway'), 'http'), 'nothing calls the event writer');
  t.equal(policies.length, ofKind(objects, 'Deployment').length, 'one policy per component');

  const narrowed = render({ networkPolicy: { openIngressFrom: [{ podSelector: { matchLabels: { role: 'front-proxy' } } }] } }).objects;
  const narrowedPolicies = ofKind(narrowed, 'NetworkPolicy');
  t.notOk(ingressAllowed(narrowedPolicies, labels('gateway'), outsider, 'http'), 'openIngressFrom narrows the gateway');
  t.ok(ingressAllowed(narrowedPolicies, labels('gateway'), { role: 'front-proxy' }, 'http'));

  const metrics = render({ networkPolicy: { metricsFrom: [{ podSelector: { matchLabels: { app: 'prometheus' } } }] } }).objects;
  t.ok(ingressAllowed(ofKind(metrics, 'NetworkPolicy'), labels('pii'), { app: 'prometheus' }, 'http'), 'metricsFrom reaches detectors');
  t.ok(ingressAllowed(ofKind(metrics, 'NetworkPolicy'), labels('event-writer'), { app: 'prometheus' }, 'http'));

  t.same(ofKind(render({ networkPolicy: { enabled: false } }).objects, 'NetworkPolicy'), [], 'can be turned off');
});

t.test('the operator runs under a least-privilege ServiceAccount', async (t) => {
  const { objects } = render();
  const sa = find(objects, 'ServiceAccount', 'pal-palisade-operator');
  t.ok(sa);
  const operatorPod = podSpec(deployment(objects, 'operator')!);
  t.equal(operatorPod.serviceAccountName, 'pal-palisade-operator');
  t.equal(operatorPod.automountServiceAccountToken, true);
  t.equal(envOf(operatorPod.containers[0]!).get('OPERATOR_LEASE_NAMESPACE')?.value, 'llm', 'its Lease where its Role is');
  for (const dep of ofKind(objects, 'Deployment').filter((d) => d.metadata.name !== 'pal-palisade-operator')) {
    t.equal(podSpec(dep).automountServiceAccountToken, false, `${dep.metadata.name}: no API token`);
    t.notOk(podSpec(dep).serviceAccountName, `${dep.metadata.name}: default account`);
  }

  type Rule = { apiGroups: string[]; resources: string[]; verbs: string[] };
  const triples = (rules: Rule[]) => rules.flatMap((r) => r.apiGroups.flatMap((g) => r.resources.flatMap((res) => r.verbs.map((v) => `${g}/${res}:${v}`)))).sort();
  const kinds = ['providers', 'securityprofiles', 'contentpolicies', 'eventexporters'];
  const expectedCluster = [
    ...kinds.flatMap((k) => ['get', 'list', 'watch', 'patch', 'update'].map((v) => `palisade.io/${k}:${v}`)),
    ...kinds.flatMap((k) => ['get', 'patch', 'update'].map((v) => `palisade.io/${k}/status:${v}`)),
    ...kinds.map((k) => `palisade.io/${k}/finalizers:update`),
    ...['secrets', 'namespaces'].flatMap((r) => ['get', 'list', 'watch'].map((v) => `/${r}:${v}`)),
  ].sort();
  const clusterRole = find(objects, 'ClusterRole', 'pal-palisade-operator')!;
  t.same(triples(clusterRole.rules as Rule[]), expectedCluster, 'ClusterRole: exactly what the operator needs');
  const role = find(objects, 'Role', 'pal-palisade-operator-leader-election')!;
  t.equal(role.metadata.namespace, 'llm', 'leases only in the release namespace');
  t.same(triples(role.rules as Rule[]), ['create', 'get', 'update'].map((v) => `coordination.k8s.io/leases:${v}`));
  for (const [kind, roleKind, roleName] of [
    ['ClusterRoleBinding', 'ClusterRole', 'pal-palisade-operator'],
    ['RoleBinding', 'Role', 'pal-palisade-operator-leader-election'],
  ] as const) {
    const binding = objects.find((o) => o.kind === kind && (o.roleRef as { name: string }).name === roleName)!;
    t.match(binding.roleRef, { kind: roleKind, name: roleName });
    t.same(binding.subjects, [{ kind: 'ServiceAccount', name: 'pal-palisade-operator', namespace: 'llm' }]);
  }

  const off = render({ components: { operator: { enabled: false } } }).objects;
  t.notOk(find(off, 'ClusterRole', 'pal-palisade-operator'), 'no RBAC without the operator');
});

t.test('the guard model Deployment is optional, on a GPU, with image and model from values', async (t) => {
  const { objects } = render({ guardModel: { enabled: true, model: 'Qwen/Qwen3Guard-Gen-0.6B', image: { tag: 'v0.11.0' } } });
  const dep = find(objects, 'Deployment', 'pal-palisade-guard-model')!;
  t.ok(dep);
  const c = podSpec(dep).containers[0]!;
  t.equal(c.image, 'vllm/vllm-openai:v0.11.0');
  t.ok(c.args?.includes('--model=Qwen/Qwen3Guard-Gen-0.6B'));
  t.equal(c.resources?.limits?.['nvidia.com/gpu'], 1);
  t.equal(c.readinessProbe?.httpGet?.path, '/health');
  t.ok(find(objects, 'Service', 'pal-palisade-guard-model'));
  const env = envOf(container(objects, 'content-safety'));
  t.equal(env.get('CONTENT_SAFETY_MODEL_URL')?.value, 'http://pal-palisade-guard-model:8000/v1');
  t.equal(env.get('CONTENT_SAFETY_MODEL_NAME')?.value, 'Qwen/Qwen3Guard-Gen-0.6B');
  const policies = ofKind(objects, 'NetworkPolicy');
  const guardLabels = podLabels(dep);
  t.ok(ingressAllowed(policies, guardLabels, podLabels(deployment(objects, 'content-safety')!), 'http'), 'content safety → guard model');
  t.notOk(ingressAllowed(policies, guardLabels, podLabels(deployment(objects, 'gateway')!), 'http'), 'gateway ↛ guard model');

  const external = envOf(container(render({ contentSafety: { modelUrl: 'http://guard.ml:8000/v1' } }).objects, 'content-safety'));
  t.equal(external.get('CONTENT_SAFETY_MODEL_URL')?.value, 'http://guard.ml:8000/v1', 'or an existing server');
});

t.test('threat.externalModel mounts a pretrained classifier into the threat pod and sets THREAT_MODEL_DIR', async (t) => {
  const plain = container(render().objects, 'threat');
  t.notOk(envOf(plain).has('THREAT_MODEL_DIR'), 'off by default');
  const volume = { persistentVolumeClaim: { claimName: 'prompt-guard-2' } };
  const { objects } = render({ threat: { externalModel: { enabled: true, volume, subPath: 'onnx-export', ensemble: 'mean' } } });
  const c = container(objects, 'threat');
  t.equal(envOf(c).get('THREAT_MODEL_DIR')?.value, '/models/threat');
  t.equal(envOf(c).get('THREAT_ENSEMBLE')?.value, 'mean');
  t.same(c.volumeMounts?.find((m) => m.name === 'threat-model'), { name: 'threat-model', mountPath: '/models/threat', readOnly: true, subPath: 'onnx-export' });
  t.same(podSpec(deployment(objects, 'threat')!).volumes?.find((v) => v.name === 'threat-model'), { name: 'threat-model', ...volume });
  t.notOk(envOf(container(objects, 'gateway')).has('THREAT_MODEL_DIR'), 'only the threat detector loads it');
  t.throws(() => render({ threat: { externalModel: { enabled: true } } }), /threat.externalModel.volume/);
});

t.test('the mock LLM can be turned on for trials', async (t) => {
  const { objects } = render({ components: { mockLlm: { enabled: true } } });
  const c = container(objects, 'mock-llm');
  t.same(c.args, ['mock-llm']);
  t.equal(c.livenessProbe?.httpGet?.path, '/health');
  t.notOk(envOf(c).has('INTERNAL_SERVICE_TOKEN'));
});

t.test('values.schema.json accepts values.yaml and rejects bad values', async (t) => {
  const schema = JSON.parse(readFileSync(`${CHART}values.schema.json`, 'utf8')) as object;
  const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
  const validate = ajv.compile(schema);
  const values = readChartValues(CHART);
  t.ok(validate(values), `values.yaml is valid: ${ajv.errorsText(validate.errors)}`);
  t.ok(validate({ ...values, ...REQUIRED }), 'with the required hosts');

  const bad: Array<[string, Record<string, unknown>]> = [
    ['a port that is not a number', { components: { ...(values.components as object), pii: { ...(values.components as Record<string, object>).pii, port: '8084' } } }],
    ['an unknown ingress mode', { components: { ...(values.components as object), pii: { ...(values.components as Record<string, object>).pii, ingress: 'public' } } }],
    ['a GPU switch that is not a boolean', { gpu: { ...(values.gpu as object), enabled: 'yes' } }],
    ['an unknown log level', { logLevel: 'verbose' }],
    ['an unknown sslMode', { externalDatabase: { ...(values.externalDatabase as object), sslMode: 'sometimes' } }],
    ['a component without a command', { components: { ...(values.components as object), extra: { enabled: true, port: 1 } } }],
  ];
  for (const [what, override] of bad) t.notOk(validate({ ...values, ...override }), `rejects ${what}`);
});

t.test('templates render the same objects twice (no hidden state) and name each object once', async (t) => {
  const fixed = { internal: { internalServiceToken: 'x', secretKey: 'y' }, auth: { proxySharedSecret: 'p', cookieSecret: 'c', adminUserPassword: 'a' } };
  const a = render(fixed);
  const b = render(fixed);
  t.same(a.objects, b.objects);
  const ids = a.objects.map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`);
  t.same(ids.filter((id, i) => ids.indexOf(id) !== i), [], 'no duplicates');
  for (const o of a.objects) t.ok(o.metadata.name.length <= 63, `${o.metadata.name}: a valid length`);
});

t.test('login: the Admin API behind the proxy, one shared secret, the IdP and an Ingress', async (t) => {
  const { objects } = render({ auth: { proxyUrl: 'https://palisade.example.com', idpUrl: 'https://login.example.com', ingress: { enabled: true, proxyHost: 'palisade.example.com', idpHost: 'login.example.com' } } });
  const api = envOf(container(objects, 'admin-api'));
  const proxy = envOf(container(objects, 'auth-proxy'));
  const idp = envOf(container(objects, 'idp'));
  t.equal(api.get('AUTH_PROXY_ENABLED')?.value, 'true', 'production mode');
  t.same(api.get('AUTH_PROXY_SHARED_SECRET')?.valueFrom, proxy.get('AUTH_PROXY_SHARED_SECRET')?.valueFrom, 'the same secret on both sides');
  t.match(api.get('AUTH_PROXY_SHARED_SECRET')?.valueFrom, { secretKeyRef: { name: 'pal-palisade-auth', key: 'proxy-shared-secret' } });
  t.equal(proxy.get('AUTH_PROXY_ISSUER_URL')?.value, 'https://login.example.com');
  t.equal(proxy.get('AUTH_PROXY_REDIRECT_URL')?.value, 'https://palisade.example.com/oauth2/callback');
  t.equal(proxy.get('AUTH_PROXY_API_UPSTREAM')?.value, 'http://pal-palisade-admin-api:8001');
  t.equal(proxy.get('AUTH_PROXY_UPSTREAM')?.value, 'http://pal-palisade-ui:4200', 'pages go to the Admin UI');
  t.equal(envOf(container(objects, 'ui')).get('ADMIN_API_URL')?.value, 'http://pal-palisade-admin-api:8001');
  t.equal(idp.get('IDP_ISSUER')?.value, 'https://login.example.com');
  t.equal(idp.get('IDP_REDIRECT_URIS')?.value, 'https://palisade.example.com/oauth2/callback');
  t.ok(idp.get('DATABASE_URL') && idp.get('PALISADE_SECRET_KEY'), 'the IdP keeps users, sessions and sealed keys in PostgreSQL');
  const secret = find(objects, 'Secret', 'pal-palisade-auth') as { data?: Record<string, string> } | undefined;
  t.ok(secret?.data?.['proxy-shared-secret'] && secret?.data?.['cookie-secret'] && secret?.data?.['admin-user-password'], 'generated secrets');
  const ingress = find(objects, 'Ingress', 'pal-palisade-login') as { spec?: { rules?: Array<{ host: string }> } } | undefined;
  t.same(ingress?.spec?.rules?.map((r) => r.host), ['palisade.example.com', 'login.example.com']);

  const external = render({ auth: { identityProvider: 'external', external: { issuerUrl: 'https://kc.example.com/realms/palisade' } }, components: { idp: { enabled: false } } }).objects;
  t.equal(envOf(container(external, 'auth-proxy')).get('AUTH_PROXY_ISSUER_URL')?.value, 'https://kc.example.com/realms/palisade');
  t.equal(envOf(container(external, 'admin-api')).get('IDENTITY_PROVIDER')?.value, 'external');
  t.notOk(deployment(external, 'idp'), 'no built-in IdP');
  t.throws(() => render({ auth: { identityProvider: 'external' } }), /auth.external.issuerUrl is required/);
});

t.test('monitoring: the Grafana dashboard ConfigMap and the PrometheusRule, each behind its switch', async (t) => {
  const off = render();
  t.equal(ofKind(off.objects, 'PrometheusRule').length, 0, 'no rule by default');
  t.notOk(find(off.objects, 'ConfigMap', 'pal-palisade-dashboard'), 'no dashboard by default');

  const { objects } = render({
    monitoring: { grafanaDashboard: { enabled: true, label: 'grafana_dashboard', labelValue: '1', namespace: 'grafana' }, prometheusRule: { enabled: true, labels: { release: 'kps' } } },
  });
  const dashboard = find(objects, 'ConfigMap', 'pal-palisade-dashboard')!;
  t.ok(dashboard, 'the dashboard ConfigMap');
  t.equal(dashboard.metadata.labels?.grafana_dashboard, '1', 'labelled for the Grafana sidecar');
  t.equal(dashboard.metadata.namespace, 'grafana');
  const json = (dashboard as unknown as { data: Record<string, string> }).data['palisade-overview.json']!;
  t.same(JSON.parse(json), JSON.parse(readFileSync(`${CHART}monitoring/palisade-overview.json`, 'utf8')), 'the dashboard file, unchanged by the template');
  t.match(json, /\{\{decision\}\}/, "Grafana's legend placeholders pass through");

  const rule = find(objects, 'PrometheusRule', 'pal-palisade-alerts')!;
  t.ok(rule, 'the PrometheusRule');
  t.equal(rule.apiVersion, 'monitoring.coreos.com/v1');
  t.equal(rule.metadata.labels?.release, 'kps', 'labels for the ruleSelector');
  const alerts = ((rule as unknown as { spec: { groups: Array<{ rules: Array<{ alert: string; annotations: Record<string, string> }> }> } }).spec.groups).flatMap((g) => g.rules);
  for (const name of ['PalisadeGatewayErrorRate', 'PalisadeDetectorTimeouts', 'PalisadeFailSafeTriggered', 'PalisadeExporterLag', 'PalisadeBundleStale', 'PalisadeEventWriterLag']) {
    t.ok(alerts.some((a) => a.alert === name), name);
  }
  t.ok(alerts.some((a) => a.annotations.description!.includes('{{ $labels.')), "Prometheus's placeholders pass through Helm");
});

t.test('tracing: the OTEL_* variables on every component when an endpoint is set', async (t) => {
  t.notOk(envOf(container(render().objects, 'gateway')).has('OTEL_EXPORTER_OTLP_ENDPOINT'), 'off by default');
  const { objects } = render({ tracing: { otlpEndpoint: 'http://otel.obs:4318', sampler: 'parentbased_traceidratio', samplerArg: '0.1', resourceAttributes: 'deployment.environment.name=prod' } });
  for (const command of ['gateway', 'pii', 'registry']) {
    const env = envOf(container(objects, command));
    t.equal(env.get('OTEL_EXPORTER_OTLP_ENDPOINT')?.value, 'http://otel.obs:4318', command);
    t.equal(env.get('OTEL_SERVICE_NAME')?.value, `palisade-${command}`);
    t.equal(env.get('OTEL_TRACES_SAMPLER_ARG')?.value, '0.1');
    t.equal(env.get('OTEL_RESOURCE_ATTRIBUTES')?.value, 'deployment.environment.name=prod,k8s.namespace.name=llm');
  }
});
