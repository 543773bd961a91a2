// Step 1: which provider a call goes to. The tenant (X-Tenant-ID, or the gateway API key's when
// AUTH_ENABLED) and the request's URL, host and headers are matched against the snapshot's router
// (spec routing rules 1-5, 7, 8); the provider's own faults are the error table's.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { inSpanSync, PalisadeError, type Tracer } from '@palisade/core';
import type { GatewaySnapshot } from '../config/snapshot.js';
import type { ApiKeyAuth } from '../server/api-keys.js';
import { firstHeader, originalUriOf, tenantOf } from '../server/request-info.js';
import type { CallState } from './call-state.js';

export type MatchedRoute = NonNullable<ReturnType<GatewaySnapshot['match']>>;

export interface RoutedCall {
  snapshot: GatewaySnapshot;
  tenantId: string;
  /** Null: no provider matches (the fallback of routing rule 6 may still apply). */
  route: MatchedRoute | null;
}

export async function routeCall(
  deps: { current(): GatewaySnapshot | null; auth?: ApiKeyAuth | undefined; tracer?: Tracer | undefined },
  request: FastifyRequest,
  reply: FastifyReply,
  state: CallState | null,
): Promise<RoutedCall> {
  const snapshot = deps.current();
  if (!snapshot) throw new PalisadeError('SERVICE_UNAVAILABLE', { message: 'The gateway has not loaded its configuration yet' });
  const headers = request.headers;
  let tenantId = tenantOf(headers);
  if (deps.auth) {
    const authenticated = await deps.auth.authenticate(headers.authorization, snapshot, firstHeader(headers, 'x-tenant-id'));
    reply.headers(authenticated.headers);
    tenantId = authenticated.key.tenant_id;
    if (state) state.tenantId = tenantId;
  }
  const route = inSpanSync(deps.tracer, request.traceContext, 'gateway.route', () =>
    snapshot.match({ tenant_id: tenantId, original_uri: originalUriOf(headers, request.url), host: headers.host, headers }),
  );
  return { snapshot, tenantId, route };
}

/** A matched provider that cannot be called: no target, no mapping, undecryptable credentials. */
export function checkRoute(route: MatchedRoute): asserts route is MatchedRoute & { upstreamUrl: string; mapping: NonNullable<MatchedRoute['mapping']> } {
  if (!route.upstreamUrl) throw new PalisadeError('PROVIDER_MISSING_TARGET');
  if (!route.mapping) throw new PalisadeError('MISSING_FIELD_MAPPING', { ...(route.mappingError ? { message: route.mappingError } : {}) });
  if (route.authError) throw new PalisadeError('INTERNAL_ERROR', { message: 'The provider credentials cannot be decrypted', cause: new Error(route.authError) });
}
