// The events of a call that did not get as far as a decision's own events: a failure on the way
// (PROVIDER_ERROR, RATE_LIMIT, SERVICE_UNAVAILABLE, REQUEST_ERROR) or an upstream's 5xx, with what the
// call had learned by then (tenant, route, event context).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { emitOperationalEvent, operationalEventOf, upstreamStatusEvent, type EventEmitter, type SecurityEventContext, type SecurityEventPart } from '../events/index.js';
import { sourceIpOf, tenantOf } from '../server/request-info.js';
import type { CallState } from './call-state.js';

function eventContextOf(state: CallState): SecurityEventContext {
  return {
    ...(state.context ?? {}),
    trace_id: state.traceId,
    tenant_id: state.tenantId,
    source_ip: state.context?.source_ip ?? state.sourceIp,
    ...(state.route && !state.context ? { provider_id: state.route.providerId, provider_name: state.route.providerName, profile_id: state.route.profile?.id ?? null } : {}),
  };
}

export type CallHandler = (request: FastifyRequest, reply: FastifyReply, state: CallState | null, recordUpstreamStatus?: (state: CallState, status: number) => void) => Promise<unknown>;

/** Wraps the call so that its failure (or an upstream 5xx) is recorded; without events, the call as is. */
export function recordingCalls(events: Pick<EventEmitter, 'emitLater'> | undefined, handle: CallHandler) {
  if (!events) return (request: FastifyRequest, reply: FastifyReply) => handle(request, reply, null);
  const record = (state: CallState, part: SecurityEventPart | null) => {
    if (part) emitOperationalEvent(events, part, eventContextOf(state), state.route?.profile);
  };
  const onUpstreamStatus = (state: CallState, status: number) => record(state, upstreamStatusEvent(status));
  return async function recorded(request: FastifyRequest, reply: FastifyReply) {
    const state: CallState = { tenantId: tenantOf(request.headers), traceId: request.id, sourceIp: sourceIpOf(request.headers, request.socket.remoteAddress) };
    try {
      return await handle(request, reply, state, onUpstreamStatus);
    } catch (error) {
      record(state, operationalEventOf(error));
      throw error;
    }
  };
}
