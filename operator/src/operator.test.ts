// The operator end to end: a Kubernetes API server on 127.0.0.1 (testing/kube-api-server.ts), the real
// @kubernetes/client-node client, and the registry database (PGlite and PostgreSQL).
import t from 'tap';
import { CoreV1Api, CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import { BUNDLE_CHANNEL, createBundleRepository, createMemoryStreams, createResourceStore, createSecretBox, type Database, type PubSub } from '@palisade/core';
import { forEachDatabase } from '@palisade/core/testing';
import { createOperatorComponent, type OperatorComponent } from './component.js';
import { FINALIZER, GROUP, VERSION } from './crd/kinds.js';
import { createKubeClient, loadKubeConfig } from './kube/client.js';
import { startTestKubeApiServer, type KubeObject, type TestKubeApiServer } from './testing/kube-api-server.js';

const NS = 'team-a';

async function waitFor<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const condition = (o: KubeObject | undefined, type: string) =>
  ((o?.status as { conditions?: Array<{ type: string; status: string; reason: string; observedGeneration: number; message: string }> } | undefined)?.conditions ?? []).find((c) => c.type === type);

function clients(config: KubeConfig) {
  return { custom: config.makeApiClient(CustomObjectsApi), core: config.makeApiClient(CoreV1Api) };
}

async function setUp(server: TestKubeApiServer) {
  const config = loadKubeConfig({ server: server.url });
  const { core } = clients(config);
  await core.createNamespace({ body: { metadata: { name: NS, labels: { 'palisade.io/tenant': 'acme' } } } });
  await core.createNamespacedSecret({ namespace: NS, body: { metadata: { name: 'upstream' }, data: { token: Buffer.from('sk-live-123').toString('base64') } } });
  return config;
}

function startOperator(db: Database, server: TestKubeApiServer, env: Record<string, string>, pubsub?: PubSub) {
  const streams = createMemoryStreams();
  const notices: string[] = [];
  const operator = createOperatorComponent({
    db,
    secrets: createSecretBox('test-key'),
    pubsub: pubsub ?? streams.pubsub,
    env: { OPERATOR_RESYNC_SECONDS: '0', ...env },
    kube: createKubeClient(loadKubeConfig({ server: server.url })),
    baseBackoffMs: 50,
  });
  return { operator, streams, notices };
}

const providerSpec = {
  providerType: 'vendor_a',
  matchType: 'url',
  matchValue: '/v1/**',
  targetBaseUrl: 'http://127.0.0.1:9',
  mappingPreset: 'vendor_a_chat_completions',
  upstreamAuth: { type: 'bearer', tokenSecretRef: { name: 'upstream', key: 'token' } },
};

t.test('custom resources become registry records, bundle revisions and status', async (t) => {
  await forEachDatabase(t, async (t, db) => {
    const server = await startTestKubeApiServer();
    t.teardown(() => server.close());
    const config = await setUp(server);
    const { custom } = clients(config);
    const { operator, streams, notices } = startOperator(db, server, { OPERATOR_LEADER_ELECTION: 'false' });
    await streams.pubsub.subscribe(BUNDLE_CHANNEL, (m) => void notices.push(m));
    await operator.start();
    t.teardown(async () => {
      await operator.stop();
      await streams.close();
    });
    const store = createResourceStore(db);
    const bundles = createBundleRepository(db);
    const box = createSecretBox('test-key');
    const create = (plural: string, name: string, spec: unknown) =>
      custom.createNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: NS, plural, body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'x', metadata: { name }, spec } });
    const get = (plural: string, name: string) => server.get(plural, NS, name);

    // create → record + new bundle revision + Ready=True
    const firstRevision = await bundles.revision();
    await create('providers', 'openai', providerSpec);
    const ready = await waitFor('the provider to be Ready', () => condition(get('providers', 'openai'), 'Ready')?.status === 'True' && get('providers', 'openai'));
    const uid = ready.metadata.uid!;
    t.ok(ready.metadata.finalizers?.includes(FINALIZER), 'finalizer added');
    t.equal(condition(ready, 'Reconciled')?.status, 'True');
    t.match(condition(ready, 'Reconciled')?.message, /in the registry database/, 'Reconciled: written into the database');
    t.match(condition(ready, 'Ready')?.message, /in the policy bundle/, 'Ready: live in the published bundle');
    t.equal(condition(ready, 'Ready')?.observedGeneration, 1);
    const record = await store.providers.get(uid);
    t.ok(record, 'record stored under the resource uid');
    t.equal(record?.managed_by, 'operator');
    t.equal(record?.tenant_id, 'acme', 'tenant from the namespace label');
    t.equal(record?.status, 'ACTIVE');
    t.equal(record?.name, 'openai', 'name defaults to metadata.name');
    t.equal(record?.priority, 100, 'model defaults applied');
    const auth = record?.upstream_auth as { type: string; token: string };
    t.ok(box.isSealed(auth.token), 'the credential is sealed at rest');
    t.equal(box.open(auth.token), 'sk-live-123', 'read from the Secret');
    const revision1 = await bundles.revision();
    t.not(revision1, firstRevision, 'a new bundle revision');
    t.equal((ready.status as { bundleRevision: string }).bundleRevision, revision1);
    await waitFor('a change notice', () => notices.some((n) => n.includes(revision1!)));

    // spec change → new generation reconciled
    await custom.patchNamespacedCustomObject(
      { group: GROUP, version: VERSION, namespace: NS, plural: 'providers', name: 'openai', body: [{ op: 'replace', path: '/spec/matchValue', value: '/v2/**' }] },
    );
    const second = await waitFor('generation 2 reconciled', () => {
      const o = get('providers', 'openai');
      return o?.metadata.generation === 2 && condition(o, 'Ready')?.observedGeneration === 2 && o;
    });
    t.equal((await store.providers.get(uid))?.match_value, '/v2/**');
    t.not((second.status as { bundleRevision: string }).bundleRevision, revision1, 'another bundle revision');

    // an invalid spec → Ready=False with a reason, nothing written
    await create('securityprofiles', 'strict', { providerRef: { name: 'missing' } });
    const invalid = await waitFor('the profile to be rejected', () => condition(get('securityprofiles', 'strict'), 'Ready')?.status === 'False' && get('securityprofiles', 'strict'));
    t.equal(condition(invalid, 'Ready')?.reason, 'ProviderNotFound');
    t.equal(condition(invalid, 'Reconciled')?.status, 'False', 'not written either');
    t.equal(condition(invalid, 'Reconciled')?.reason, 'ProviderNotFound');
    t.match(condition(invalid, 'Ready')?.message, /missing/);
    t.equal((await store.profiles.all()).length, 0, 'no profile record');

    // a model rule the schema cannot express is reported with the CRD's field name
    await create('contentpolicies', 'bad-lang', { type: 'language', languages: ['xx'] });
    const badLang = await waitFor('the policy to be rejected', () => condition(get('contentpolicies', 'bad-lang'), 'Ready')?.status === 'False' && get('contentpolicies', 'bad-lang'));
    t.equal(condition(badLang, 'Ready')?.reason, 'InvalidSpec');
    t.match(condition(badLang, 'Ready')?.message, /spec\.languages/);

    // the reference fixed → reconciled, ids resolved from names
    await create('contentpolicies', 'no-secrets', { type: 'blocklist', rules: [{ kind: 'keyword', pattern: 'password' }] });
    await create('securityprofiles', 'default', { providerRef: { name: 'openai' }, contentPolicyRefs: [{ name: 'no-secrets' }], blockStatusCode: 403 });
    const profile = await waitFor('the profile to be Ready', () => condition(get('securityprofiles', 'default'), 'Ready')?.status === 'True' && get('securityprofiles', 'default'));
    const profileRecord = await store.profiles.get(profile.metadata.uid!);
    t.equal(profileRecord?.provider_id, uid);
    t.same(profileRecord?.content_policy_ids, [get('contentpolicies', 'no-secrets')!.metadata.uid]);
    t.equal(profileRecord?.block_status_code, 403);

    // drift: a record edited behind the operator's back is repaired by the resync
    await store.providers.update(uid, (r) => ({ ...r, priority: 999, managed_by: 'api' }));
    operator.resync();
    await waitFor('the drift to be repaired', async () => {
      const r = await store.providers.get(uid);
      return r?.priority === 100 && r.managed_by === 'operator';
    });

    // the provider's health checks are mirrored into its status
    await store.providers.update(uid, (r) => ({ ...r, health_status: 'HEALTHY', health_latency_ms: 12, health_checked_at: new Date().toISOString() }));
    operator.resync();
    await waitFor('health in the status', () => (get('providers', 'openai')?.status as { health?: { status: string } })?.health?.status === 'HEALTHY');
    t.equal((await store.providers.get(uid))?.health_latency_ms, 12, 'the reconcile keeps the registry-owned health fields');

    // watch reconnect after the server drops the streams
    t.ok(server.dropWatches() > 0, 'streams dropped');
    await create('eventexporters', 'siem', {
      type: 'webhook',
      config: { url: 'http://127.0.0.1:9/hook', headers: { 'X-Team': 'a' }, headersFrom: [{ header: 'Authorization', secretRef: { name: 'upstream', key: 'token' } }] },
    });
    const exporter = await waitFor('the exporter after the reconnect', () => condition(get('eventexporters', 'siem'), 'Ready')?.status === 'True' && get('eventexporters', 'siem'));
    t.equal(condition(exporter, 'Reconciled')?.status, 'True');
    t.match(condition(exporter, 'Ready')?.message, /reads the registry database/, 'an exporter is live once written');
    t.equal((exporter.status as { bundleRevision?: string }).bundleRevision, undefined, 'exporters are not in the policy bundle');
    const exporterRecord = await store.exporters.get(exporter.metadata.uid!);
    const headers = (exporterRecord?.config as { headers: Record<string, string> }).headers;
    t.equal(box.open(headers.Authorization!), 'sk-live-123', 'header value from the Secret, sealed');
    t.equal(box.open(headers['X-Team']!), 'a');

    // delete → finalizer cleanup (the profile's record goes with its provider)
    await custom.deleteNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: NS, plural: 'providers', name: 'openai' });
    await waitFor('the provider to be gone', () => get('providers', 'openai') === undefined);
    t.equal(await store.providers.get(uid), null, 'record removed');
    await waitFor('the profile to lose its provider', () => condition(get('securityprofiles', 'default'), 'Ready')?.reason === 'ProviderNotFound');
  });
});

t.test('Reconciled before Ready: a record written while the bundle cannot be announced', async (t) => {
  await forEachDatabase(t, async (t, db) => {
    if (db.kind === 'postgres') return; // about the conditions, not the database; once is enough
    const server = await startTestKubeApiServer();
    t.teardown(() => server.close());
    const config = await setUp(server);
    const { custom } = clients(config);
    const streams = createMemoryStreams();
    // The pub/sub (Redis in a deployment) goes unreachable after the first bundle is announced.
    let unreachable = false;
    const pubsub: PubSub = {
      publish: (channel, message) => (unreachable ? Promise.reject(new Error('pub/sub unreachable')) : streams.pubsub.publish(channel, message)),
      subscribe: (channel, handler) => streams.pubsub.subscribe(channel, handler),
    };
    const { operator } = startOperator(db, server, { OPERATOR_LEADER_ELECTION: 'false' }, pubsub);
    await operator.start();
    t.teardown(async () => {
      await operator.stop();
      await streams.close();
    });
    unreachable = true;
    await custom.createNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: NS, plural: 'providers', body: { metadata: { name: 'openai' }, spec: providerSpec } });
    const pending = await waitFor('Reconciled without Ready', () => condition(server.get('providers', NS, 'openai'), 'Ready')?.reason === 'BundlePending' && server.get('providers', NS, 'openai'));
    t.equal(condition(pending, 'Reconciled')?.status, 'True', 'the record is in the database');
    t.equal(condition(pending, 'Ready')?.status, 'False', 'but not announced in a bundle revision');
    t.ok(await createResourceStore(db).providers.get(pending.metadata.uid!), 'record written');
    unreachable = false;
    const ready = await waitFor('Ready after the retry', () => condition(server.get('providers', NS, 'openai'), 'Ready')?.status === 'True' && server.get('providers', NS, 'openai'));
    t.equal((ready.status as { bundleRevision: string }).bundleRevision, await createBundleRepository(db).revision());
  });
});

t.test('two operators: one leader at a time, the other takes over', async (t) => {
  await forEachDatabase(t, async (t, db) => {
    if (db.kind === 'postgres') return; // the election does not touch the database; once is enough
    const server = await startTestKubeApiServer();
    t.teardown(() => server.close());
    const config = await setUp(server);
    const { custom } = clients(config);
    const env = { OPERATOR_NAMESPACE: NS, OPERATOR_LEASE_DURATION_SECONDS: '3', OPERATOR_LEASE_RETRY_SECONDS: '1' };
    const a = startOperator(db, server, { ...env, OPERATOR_IDENTITY: 'a' });
    const b = startOperator(db, server, { ...env, OPERATOR_IDENTITY: 'b' });
    const all: OperatorComponent[] = [a.operator, b.operator];
    let both = false;
    const watchdog = setInterval(() => {
      if (all.filter((o) => o.isLeader).length > 1) both = true;
    }, 20);
    t.teardown(async () => {
      clearInterval(watchdog);
      for (const o of all) await o.stop();
      await a.streams.close();
      await b.streams.close();
    });
    await a.operator.start();
    await b.operator.start();
    const leader = await waitFor('a leader', () => all.find((o) => o.isLeader));
    const follower = all.find((o) => o !== leader)!;
    const create = (name: string) =>
      custom.createNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: NS, plural: 'providers', body: { metadata: { name }, spec: providerSpec } });
    await create('p1');
    await waitFor('p1 Ready', () => condition(server.get('providers', NS, 'p1'), 'Ready')?.status === 'True');
    t.notOk(follower.isLeader, 'the other one waits');
    await leader.stop();
    await waitFor('the follower to take over', () => follower.isLeader);
    await create('p2');
    await waitFor('p2 Ready', () => condition(server.get('providers', NS, 'p2'), 'Ready')?.status === 'True');
    const lease = server.get('leases', NS, 'palisade-operator');
    t.equal((lease?.spec as { holderIdentity: string }).holderIdentity, follower === a.operator ? 'a' : 'b');
    t.notOk(both, 'never two leaders at once');
  });
});
