// POST /api/v1/match (spec routing rule 5: "Matching is sent to the Profiles Registry as
// request.original_uri, host or header"): the provider a request would reach, with its active
// profile, using the gateway's own router so the answer is the gateway's.
import { z } from 'zod';
import { compileRouter, PalisadeError, type Profile, type ResourceStore } from '@palisade/core';
import { maskProvider, type ProviderView } from './providers.js';

export const MatchRequestBody = z.object({
  tenant_id: z.string().min(1).optional(),
  original_uri: z.string().optional(),
  host: z.string().optional(),
  /** The value of the provider's header (X-LLM-Provider unless the provider names another). */
  header: z.string().optional(),
});
export type MatchRequestBody = z.infer<typeof MatchRequestBody>;

export interface MatchResult {
  provider: ProviderView;
  profile: Profile | null;
  /** Every matching provider in precedence order; more than one shows a routing conflict. */
  candidates: Array<{ id: string; name: string; priority: number }>;
}

export function createMatchOperation(store: ResourceStore) {
  return async function match(body: unknown, defaultTenant: string): Promise<MatchResult> {
    const query = MatchRequestBody.parse(body ?? {});
    const tenant = query.tenant_id ?? defaultTenant;
    const providers = await store.providers.all({ tenant_id: tenant, status: 'ACTIVE' });
    const matches = compileRouter(providers).matchAll({
      tenant_id: tenant,
      original_uri: query.original_uri,
      host: query.host,
      header_value: query.header,
    });
    const winner = matches[0];
    if (!winner) throw new PalisadeError('NOT_FOUND', { message: `no active provider of tenant ${tenant} matches` });
    const profile = await store.profiles.findOne({ provider_id: winner.id, status: 'ACTIVE' });
    return {
      provider: maskProvider(winner),
      profile,
      candidates: matches.map((p) => ({ id: p.id, name: p.name, priority: p.priority })),
    };
  };
}
