// What the policy bundle carries (DECISIONS.md, "Policy bundle"): the ACTIVE configuration the data
// plane needs, as `palisade/data.json`.
import { z } from 'zod';
import { ApiKey } from '../model/api-key.js';
import { ContentPolicy } from '../model/content-policy.js';
import { Profile } from '../model/profile.js';
import { Provider } from '../model/provider.js';

/**
 * Provider fields left out of the bundle: health is runtime state written by the background check
 * every minute, not configuration; carrying it would change the revision (and reload every gateway)
 * on each check.
 */
export const BUNDLE_OMITTED_PROVIDER_FIELDS = ['health_status', 'health_latency_ms', 'health_error_message', 'health_checked_at'] as const;

export const BundleProvider = Provider.omit({
  health_status: true,
  health_latency_ms: true,
  health_error_message: true,
  health_checked_at: true,
});
export type BundleProvider = z.infer<typeof BundleProvider>;

/**
 * What the gateway needs to authenticate a key (DECISIONS.md, "Gateway credentials"): the hash, never
 * the key; names, prefixes and usage times stay in the database.
 */
export const BundleApiKey = ApiKey.pick({ id: true, tenant_id: true, key_hash: true, rate_limit_per_minute: true });
export type BundleApiKey = z.infer<typeof BundleApiKey>;

export const BundleData = z.object({
  providers: z.array(BundleProvider),
  profiles: z.array(Profile),
  content_policies: z.array(ContentPolicy),
  /** Keys that are not revoked; absent in bundles of older builds. */
  api_keys: z.array(BundleApiKey).default([]),
});
export type BundleData = z.infer<typeof BundleData>;

export interface BundleInput {
  providers: readonly Provider[];
  profiles: readonly Profile[];
  content_policies: readonly ContentPolicy[];
  api_keys?: readonly ApiKey[];
}

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

function withoutHealth(provider: Provider): BundleProvider {
  const { health_status: _s, health_latency_ms: _l, health_error_message: _e, health_checked_at: _c, ...rest } = provider;
  return rest;
}

/**
 * The bundle's records: ACTIVE providers (without health), ACTIVE profiles whose provider is ACTIVE,
 * ACTIVE content policies, API keys not revoked; each list sorted by id so that input order does not
 * matter.
 */
export function selectBundleData(input: BundleInput): BundleData {
  const providers = input.providers.filter((p) => p.status === 'ACTIVE').map(withoutHealth).sort(byId);
  const activeProviders = new Set(providers.map((p) => p.id));
  const profiles = input.profiles.filter((p) => p.status === 'ACTIVE' && activeProviders.has(p.provider_id)).sort(byId);
  const content_policies = input.content_policies.filter((p) => p.status === 'ACTIVE').sort(byId);
  const api_keys = (input.api_keys ?? [])
    .filter((k) => !k.revoked)
    .map(({ id, tenant_id, key_hash, rate_limit_per_minute }) => ({ id, tenant_id, key_hash, rate_limit_per_minute }))
    .sort(byId);
  return { providers, profiles, content_policies, api_keys };
}
