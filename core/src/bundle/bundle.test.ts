import t from 'tap';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { ApiKey } from '../model/api-key.js';
import { ContentPolicy } from '../model/content-policy.js';
import { Profile } from '../model/profile.js';
import { Provider } from '../model/provider.js';
import { BUNDLE_DATA_PATH, BUNDLE_MANIFEST_PATH, buildBundle, readBundle } from './bundle.js';
import { canonicalJson } from './canonical-json.js';
import type { BundleInput } from './data.js';
import { BundleError, packTarGz, unpackTarGz } from './tar.js';

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const meta = (n: number) => ({ id: uuid(n), tenant_id: 'default', created_at: '2024-01-01T00:00:00Z', updated_at: '2024-01-02T00:00:00Z' });

const provider = (n: number, status: string) =>
  Provider.parse({
    ...meta(n),
    name: `provider-${n}`,
    provider_type: 'vendor_a',
    match_type: 'url',
    match_value: `/p${n}/**`,
    target_base_url: 'https://api.example.com',
    mapping_preset: 'vendor_a_chat_completions',
    status,
    health_status: 'HEALTHY',
    health_latency_ms: 12,
    health_checked_at: '2024-01-03T00:00:00Z',
  });
const profile = (n: number, providerN: number, status: string) =>
  Profile.parse({ ...meta(n), name: `profile-${n}`, provider_id: uuid(providerN), status, content_policy_ids: [uuid(300), uuid(301)] });
const policy = (n: number, status: string) =>
  ContentPolicy.parse({ ...meta(n), name: `policy-${n}`, type: 'blocklist', rules: [{ kind: 'keyword', pattern: 'secret' }, { kind: 'regex', pattern: 'a+b' }], status });

const apiKey = (n: number, revoked: boolean) =>
  ApiKey.parse({ id: uuid(n), created_at: meta(n).created_at, name: `key-${n}`, tenant_id: 'default', key_prefix: 'pk_', key_hash: String(n).padStart(64, 'a'), revoked });

function input(): BundleInput {
  return {
    providers: [provider(2, 'ACTIVE'), provider(1, 'ACTIVE'), provider(3, 'DRAFT'), provider(4, 'ARCHIVED')],
    profiles: [
      profile(101, 1, 'ACTIVE'),
      profile(102, 2, 'DRAFT'),
      profile(103, 3, 'ACTIVE'), // its provider is DRAFT
      profile(104, 4, 'ACTIVE'), // its provider is ARCHIVED
      profile(105, 2, 'ACTIVE'),
    ],
    content_policies: [policy(301, 'ACTIVE'), policy(300, 'ACTIVE'), policy(302, 'DRAFT')],
    api_keys: [apiKey(401, false), apiKey(400, false), apiKey(402, true)],
  };
}

/** The same records with every object's keys reversed. */
function reverseKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(reverseKeys) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reverseKeys(v)])) as T;
  }
  return value;
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

t.test('only ACTIVE records, sorted by id, providers without health', async (t) => {
  const { data } = await buildBundle(input());
  t.same(data.providers.map((p) => p.name), ['provider-1', 'provider-2']);
  t.same(data.profiles.map((p) => p.name), ['profile-101', 'profile-105'], 'ACTIVE profiles of ACTIVE providers');
  t.same(data.content_policies.map((p) => p.name), ['policy-300', 'policy-301']);
  t.same(data.api_keys, [
    { id: uuid(400), tenant_id: 'default', key_hash: '400'.padStart(64, 'a'), rate_limit_per_minute: null },
    { id: uuid(401), tenant_id: 'default', key_hash: '401'.padStart(64, 'a'), rate_limit_per_minute: null },
  ], 'keys not revoked, hash and limit only');
  t.notOk('health_status' in data.providers[0]!);
  t.notOk('health_checked_at' in data.providers[0]!);
});

t.test('round trip: the archive holds .manifest and palisade/data.json, readBundle gives the data back', async (t) => {
  const bundle = await buildBundle(input());
  t.match(bundle.revision, /^[0-9a-f]{64}$/);
  const files = await unpackTarGz(bundle.archive, 1 << 20);
  t.same([...files.keys()], [BUNDLE_MANIFEST_PATH, BUNDLE_DATA_PATH]);
  t.same(JSON.parse(files.get(BUNDLE_MANIFEST_PATH)!.toString()), { revision: bundle.revision, roots: ['palisade'] });
  t.equal(sha256(files.get(BUNDLE_DATA_PATH)!), bundle.revision, 'revision = sha256 of data.json');
  t.equal(files.get(BUNDLE_DATA_PATH)!.toString(), canonicalJson(bundle.data));

  const read = await readBundle(bundle.archive);
  t.equal(read.revision, bundle.revision);
  t.same(read.data, bundle.data);
});

t.test('determinism: equal records in any order give the same revision and the same bytes', async (t) => {
  const a = await buildBundle(input());
  const shuffled = input();
  const b = await buildBundle(
    reverseKeys({
      providers: [...shuffled.providers].reverse(),
      profiles: [...shuffled.profiles].reverse(),
      content_policies: [...shuffled.content_policies].reverse(),
      api_keys: [...(shuffled.api_keys ?? [])].reverse(),
    }),
  );
  t.equal(b.revision, a.revision);
  t.ok(b.archive.equals(a.archive), 'byte-identical archive');

  const healthChanged = input();
  healthChanged.providers = healthChanged.providers.map((p) => ({ ...p, health_status: 'UNHEALTHY' as const, health_latency_ms: 999 }));
  t.equal((await buildBundle(healthChanged)).revision, a.revision, 'health checks do not change the revision');

  const edited = input();
  edited.providers = edited.providers.map((p) => (p.name === 'provider-1' ? { ...p, priority: 7 } : p));
  t.not((await buildBundle(edited)).revision, a.revision, 'a configuration change does');

  const reordered = input();
  reordered.profiles = reordered.profiles.map((p) => ({ ...p, content_policy_ids: [...p.content_policy_ids].reverse() }));
  t.not((await buildBundle(reordered)).revision, a.revision, 'arrays inside a record keep their order (it is data)');

  const archivedOnly = input();
  archivedOnly.providers = [...archivedOnly.providers, provider(9, 'ARCHIVED')];
  t.equal((await buildBundle(archivedOnly)).revision, a.revision, 'non-ACTIVE records do not count');
});

t.test('an empty configuration is a valid bundle', async (t) => {
  const bundle = await buildBundle({ providers: [], profiles: [], content_policies: [] });
  t.same((await readBundle(bundle.archive)).data, { providers: [], profiles: [], content_policies: [], api_keys: [] });
});

t.test('entries in any order, with ./ prefixes and extra entries, are read', async (t) => {
  const bundle = await buildBundle(input());
  const files = await unpackTarGz(bundle.archive, 1 << 20);
  const archive = await packTarGz([
    { name: './palisade/data.json', content: files.get(BUNDLE_DATA_PATH)! },
    { name: 'palisade/policy.rego', content: Buffer.from('package palisade\n') },
    { name: '/.manifest', content: files.get(BUNDLE_MANIFEST_PATH)! },
  ]);
  const read = await readBundle(archive);
  t.equal(read.revision, bundle.revision);
  t.same(read.data, bundle.data);
});

t.test('a tampered data.json is rejected', async (t) => {
  const bundle = await buildBundle(input());
  const files = await unpackTarGz(bundle.archive, 1 << 20);
  const data = JSON.parse(files.get(BUNDLE_DATA_PATH)!.toString());
  data.providers[0].target_base_url = 'https://evil.example.com';
  const tampered = await packTarGz([
    { name: BUNDLE_MANIFEST_PATH, content: files.get(BUNDLE_MANIFEST_PATH)! },
    { name: BUNDLE_DATA_PATH, content: Buffer.from(canonicalJson(data)) },
  ]);
  await t.rejects(readBundle(tampered), { name: 'BundleError', message: /revision [0-9a-f]{64} does not match its palisade\/data\.json/ });
});

t.test('missing entries, a bad manifest and invalid records are rejected', async (t) => {
  const dataJson = Buffer.from(canonicalJson({ providers: [], profiles: [], content_policies: [] }));
  const manifest = (m: unknown) => ({ name: BUNDLE_MANIFEST_PATH, content: Buffer.from(JSON.stringify(m)) });
  const data = { name: BUNDLE_DATA_PATH, content: dataJson };
  const cases: Array<[string, Parameters<typeof packTarGz>[0], RegExp]> = [
    ['no manifest', [data], /has no \.manifest/],
    ['no data.json', [manifest({ revision: sha256(dataJson) })], /has no palisade\/data\.json/],
    ['manifest not JSON', [{ name: BUNDLE_MANIFEST_PATH, content: Buffer.from('{') }, data], /\.manifest is not valid JSON/],
    ['manifest without revision', [manifest({ roots: ['palisade'] }), data], /\.manifest has no revision/],
    ['wrong roots', [manifest({ revision: sha256(dataJson), roots: ['other'] }), data], /roots must include "palisade"/],
    ['duplicate entry', [manifest({ revision: sha256(dataJson) }), data, data], /entry "palisade\/data\.json" twice/],
  ];
  for (const [what, files, message] of cases) {
    await t.rejects(readBundle(await packTarGz(files)), { name: 'BundleError', message }, what);
  }
  const badRecords = Buffer.from(canonicalJson({ providers: [{ id: 'x' }], profiles: [], content_policies: [] }));
  await t.rejects(
    readBundle(await packTarGz([manifest({ revision: sha256(badRecords) }), { name: BUNDLE_DATA_PATH, content: badRecords }])),
    { name: 'BundleError', message: /does not hold valid records: providers\.0\.name: / },
  );
});

t.test('garbage is rejected with a clear error', async (t) => {
  await t.rejects(readBundle(Buffer.from('not a bundle at all')), new BundleError('the bundle is not a gzip archive (expected a .tar.gz body)'));
  await t.rejects(readBundle(Buffer.alloc(0)), { name: 'BundleError', message: /not a gzip archive/ });
  await t.rejects(readBundle(Buffer.from([0x1f, 0x8b, 1, 2, 3, 4])), { name: 'BundleError', message: /not a valid gzip archive/ });
  await t.rejects(readBundle(gzipSync(Buffer.from('plain text, gzipped, long enough to be read as a tar header? '.repeat(20)))), {
    name: 'BundleError',
    message: /not a valid tar archive/,
  });
  await t.rejects(readBundle(gzipSync(Buffer.alloc(0))), { name: 'BundleError', message: /empty/ });
  const big = await packTarGz([{ name: BUNDLE_DATA_PATH, content: Buffer.alloc(100_000) }]);
  await t.rejects(readBundle(big, { maxBytes: 10_000 }), { name: 'BundleError', message: /larger than 10000 bytes/ });
});

t.test('canonicalJson sorts keys at every depth and follows JSON for the rest', async (t) => {
  t.equal(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } }), '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
  t.equal(canonicalJson({ a: undefined, b: () => 1, c: [undefined, NaN], d: new Date(0) }), '{"c":[null,null],"d":"1970-01-01T00:00:00.000Z"}');
  t.equal(canonicalJson('é"'), JSON.stringify('é"'));
  t.throws(() => canonicalJson(undefined), TypeError);
  t.throws(() => canonicalJson({ a: 1n }), TypeError);
});
