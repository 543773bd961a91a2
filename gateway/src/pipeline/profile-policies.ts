// The profile's content policies that apply to one side of a call, from the snapshot (ACTIVE ones
// only are in it): scope `both` applies to requests and responses.
import type { ContentPolicy, Profile } from '@palisade/core';
import type { GatewaySnapshot } from '../config/snapshot.js';

export function profilePolicies(profile: Profile, snapshot: Pick<GatewaySnapshot, 'contentPolicy'>, side: 'request' | 'response'): ContentPolicy[] {
  const other = side === 'request' ? 'response' : 'request';
  const out: ContentPolicy[] = [];
  for (const id of profile.content_policy_ids) {
    const policy = snapshot.contentPolicy(id);
    if (policy && policy.scope !== other) out.push(policy);
  }
  return out;
}
