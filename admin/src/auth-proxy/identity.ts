// The forwarded identity, from ID-token or access-token claims, under configurable claim names, and
// the headers that carry it (exactly oauth2-proxy's names, plus the spec's X-Forwarded-Tenant-Id).
import type { IncomingHttpHeaders } from 'node:http';
import { SIGNATURE_HEADER, signIdentityHeaders } from '../auth/proxy-proof.js';

export interface ForwardedUser {
  sub: string;
  user: string;
  email: string;
  groups: string[];
  preferredUsername: string;
  tenantId: string;
}

export interface ClaimNames {
  user: string;
  groups: string;
  tenant: string;
}

function claimAt(claims: Record<string, unknown>, path: string): unknown {
  if (path in claims) return claims[path];
  let value: unknown = claims;
  for (const part of path.split('.', 8)) value = value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
  return value;
}

const text = (value: unknown) => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');

export function userFromClaims(claims: Record<string, unknown>, names: ClaimNames): ForwardedUser {
  const groupsClaim = claimAt(claims, names.groups);
  const groups = Array.isArray(groupsClaim) ? groupsClaim.map(text).filter(Boolean) : text(groupsClaim).split(',').filter(Boolean);
  const preferredUsername = text(claimAt(claims, names.user)) || text(claims.preferred_username) || text(claims.sub);
  return {
    sub: text(claims.sub),
    user: preferredUsername,
    email: text(claims.email),
    groups: groups.slice(0, 100),
    preferredUsername,
    tenantId: text(claimAt(claims, names.tenant)),
  };
}

/** Identity headers a client might send to impersonate someone; every one is removed before forwarding. */
const SPOOFABLE = /^(x-forwarded-(user|email|groups|preferred-username|tenant-id|access-token)|x-auth-request-.*|x-palisade-(proxy-secret|identity-signature))$/;

/** The request headers to send upstream: the client's, without identity headers, plus ours. */
export function forwardHeaders(incoming: IncomingHttpHeaders, user: ForwardedUser | null, options: { secret?: string | undefined; accessToken?: string | undefined }): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(incoming)) if (!SPOOFABLE.test(name)) out[name] = value;
  if (!user) return out;
  out['x-forwarded-user'] = user.user;
  out['x-forwarded-email'] = user.email;
  out['x-forwarded-groups'] = user.groups.join(',');
  out['x-forwarded-preferred-username'] = user.preferredUsername;
  if (user.tenantId) out['x-forwarded-tenant-id'] = user.tenantId;
  if (options.accessToken) out['x-forwarded-access-token'] = options.accessToken;
  if (options.secret) out[SIGNATURE_HEADER] = signIdentityHeaders(options.secret, out);
  return out;
}
