// The gateway's in-memory view of one bundle revision: everything a request needs, compiled once, so
// the hot path does no I/O and no parsing of configuration (spec: "Provider matching results are
// cached"; issue: "no network call per request for matching").
import {
  compileProviderMapping,
  compileRouter,
  createMatchCache,
  mapSecretFields,
  UPSTREAM_AUTH_SECRET_FIELDS,
  type BundleApiKey,
  type BundleData,
  type BundleProvider,
  type CompiledMapping,
  type ContentPolicy,
  type InvalidProvider,
  type MatchCache,
  type MatchRequest,
  type Profile,
  type SecretBox,
  type UpstreamAuth,
} from '@palisade/core';

/** One routable provider with what the gateway derived from it. */
export interface ProviderRoute {
  provider: BundleProvider;
  /** target_base_url + target_path (spec routing rule 7); '' when the provider has no target. */
  upstreamUrl: string;
  /** The compiled field mapping, or null when the provider has none (MISSING_FIELD_MAPPING). */
  mapping: CompiledMapping | null;
  /** Why `mapping` is null. */
  mappingError: string | null;
  /** The provider's ACTIVE profile; null = requests pass uninspected (spec, provider states). */
  profile: Profile | null;
  /** upstream_auth with its secrets decrypted; undefined = passthrough. */
  auth: UpstreamAuth | undefined;
  /** Why the stored credentials could not be decrypted (requests then fail with INTERNAL_ERROR). */
  authError: string | null;
}

export interface GatewaySnapshot {
  readonly revision: string;
  /** The winning provider for a request, from the match cache. */
  match(request: MatchRequest): ProviderRoute | null;
  /** The key whose SHA-256 hex is `hash`, when it is not revoked. */
  apiKey(hash: string): BundleApiKey | undefined;
  contentPolicy(id: string): ContentPolicy | undefined;
  readonly providers: number;
  /** The bundle's ACTIVE profiles, one per provider at most. */
  readonly profiles: readonly Profile[];
  /** ACTIVE providers whose pattern does not compile; left out of routing. */
  readonly invalid: ReadonlyArray<InvalidProvider<ProviderRoute & { id: string }>>;
  /** Compiled mappings by provider id, handed to the next snapshot (compiled once per provider revision). */
  readonly mappings: ReadonlyMap<string, MappingCompilation>;
}

interface RoutableEntry extends ProviderRoute {
  id: string;
  tenant_id: string;
  status: string;
  match_type: BundleProvider['match_type'];
  match_value: string;
  header_name: string;
  priority: number;
  created_at: string;
}

/** Joins base and path without doubling the slash a base URL may end with. */
export function upstreamUrlOf(provider: Pick<BundleProvider, 'target_base_url' | 'target_path'>): string {
  const base = provider.target_base_url ?? '';
  if (!base) return '';
  const path = provider.target_path ?? '';
  return base.endsWith('/') && path.startsWith('/') ? base.slice(0, -1) + path : base + path;
}

/** The mapping compiled for a provider revision: reused as long as the provider's record is unchanged. */
export interface MappingCompilation {
  updatedAt: string;
  mapping: CompiledMapping | null;
  error: string | null;
}

export interface SnapshotOptions {
  /** Most cached match results (default 10 000). */
  matchCacheEntries?: number;
  /** The snapshot it replaces: compiled mappings of unchanged providers are taken over. */
  previous?: GatewaySnapshot;
  /** Opens the sealed secrets of upstream_auth (PALISADE_SECRET_KEY); without it they pass as stored. */
  secrets?: SecretBox;
}

function openAuth(auth: UpstreamAuth | undefined, secrets: SecretBox | undefined): { auth: UpstreamAuth | undefined; error: string | null } {
  if (!auth || !secrets) return { auth, error: null };
  try {
    return { auth: mapSecretFields(auth, UPSTREAM_AUTH_SECRET_FIELDS, (sealed) => secrets.open(sealed)), error: null };
  } catch (error) {
    return { auth: undefined, error: error instanceof Error ? error.message : String(error) };
  }
}

function compileFor(provider: BundleProvider, previous: ReadonlyMap<string, MappingCompilation> | undefined): MappingCompilation {
  const known = previous?.get(provider.id);
  if (known && known.updatedAt === provider.updated_at) return known;
  try {
    return { updatedAt: provider.updated_at, mapping: compileProviderMapping(provider), error: null };
  } catch (error) {
    return { updatedAt: provider.updated_at, mapping: null, error: error instanceof Error ? error.message : String(error) };
  }
}

export function compileSnapshot(revision: string, data: BundleData, options: SnapshotOptions = {}): GatewaySnapshot {
  const previous = options.previous?.mappings;
  const mine = new Map<string, MappingCompilation>();
  const profileByProvider = new Map<string, Profile>();
  for (const profile of data.profiles) if (profile.status === 'ACTIVE') profileByProvider.set(profile.provider_id, profile);

  const entries: RoutableEntry[] = data.providers.map((provider) => {
    const compiled = compileFor(provider, previous);
    mine.set(provider.id, compiled);
    const opened = openAuth(provider.upstream_auth, options.secrets);
    return {
      id: provider.id,
      tenant_id: provider.tenant_id,
      status: provider.status,
      match_type: provider.match_type,
      match_value: provider.match_value,
      header_name: provider.header_name,
      priority: provider.priority,
      created_at: provider.created_at,
      provider,
      upstreamUrl: upstreamUrlOf(provider),
      mapping: compiled.mapping,
      mappingError: compiled.error,
      profile: profileByProvider.get(provider.id) ?? null,
      auth: opened.auth,
      authError: opened.error,
    };
  });
  const router = compileRouter(entries);
  const cache: MatchCache<RoutableEntry> = createMatchCache(router, { maxEntries: options.matchCacheEntries ?? 10_000 });
  const keys = new Map(data.api_keys.map((k) => [k.key_hash, k]));
  const policies = new Map(data.content_policies.map((p) => [p.id, p]));

  const snapshot: GatewaySnapshot = {
    revision,
    match: (request) => cache.match(request),
    apiKey: (hash) => keys.get(hash),
    contentPolicy: (id) => policies.get(id),
    providers: router.size,
    profiles: [...profileByProvider.values()],
    invalid: router.invalid,
    mappings: mine,
  };
  return snapshot;
}
