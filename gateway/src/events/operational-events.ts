// Events of calls that failed for a reason other than a security decision (spec, Security events:
// PROVIDER_ERROR, RATE_LIMIT, SERVICE_UNAVAILABLE, REQUEST_ERROR; their exact conditions are ours, spec
// rule 5). Blocks are recorded by the inspector and the scanner, not here.
import { isPalisadeError, type Profile } from '@palisade/core';
import { buildSecurityEvents, type SecurityEventContext, type SecurityEventPart } from './build-events.js';
import type { EventEmitter } from './emitter.js';

/** Codes a client's own mistake or a gateway misconfiguration produce: REQUEST_ERROR. */
// PAYLOAD_TOO_LARGE here is a prompt longer than its profile inspects (the body limit answers before routing).
const REQUEST_ERROR_CODES = new Set(['INVALID_REQUEST', 'PAYLOAD_TOO_LARGE', 'NO_BACKEND_CONFIGURED', 'NO_BACKEND_PATH_CONFIGURED', 'PROVIDER_MISSING_TARGET', 'MISSING_FIELD_MAPPING']);

/**
 * The event a failed call records, or null. Not recorded: the decisions (their own events), a client
 * that went away (499: nothing failed), and AUTHENTICATION_FAILED — a stream of unauthenticated calls
 * must not be able to fill the event store; the gateway's logs and metrics count them.
 */
export function operationalEventOf(error: unknown): SecurityEventPart | null {
  if (!isPalisadeError(error)) return { event_type: 'REQUEST_ERROR', action: 'ERROR', reasons: ['internal error'] };
  const reason = [error.message];
  switch (error.code) {
    case 'LLM_REQUEST_FAILED':
      return error.status === 499 ? null : { event_type: 'PROVIDER_ERROR', action: 'ERROR', reasons: reason };
    case 'LLM_TIMEOUT':
      return { event_type: 'PROVIDER_ERROR', action: 'TIMEOUT', reasons: reason };
    case 'RATE_LIMIT_EXCEEDED':
      return { event_type: 'RATE_LIMIT', action: 'BLOCK', reasons: reason };
    case 'SERVICE_UNAVAILABLE':
      return { event_type: 'SERVICE_UNAVAILABLE', action: 'ERROR', reasons: reason };
    case 'INTERNAL_ERROR':
      return { event_type: 'REQUEST_ERROR', action: 'ERROR', reasons: reason };
    default:
      return REQUEST_ERROR_CODES.has(error.code) ? { event_type: 'REQUEST_ERROR', action: 'ERROR', reasons: reason } : null;
  }
}

/** An upstream that answered with a server error: the answer is passed on, and the failure recorded. */
export function upstreamStatusEvent(status: number): SecurityEventPart | null {
  return status >= 500 ? { event_type: 'PROVIDER_ERROR', action: 'ERROR', reasons: [`the LLM backend answered HTTP ${status}`] } : null;
}

/**
 * Emits `part` off the request path. With the request's profile the suppression rules apply
 * (disabled_event_types); without one (no route yet, or an unprofiled provider) the event is kept.
 */
export function emitOperationalEvent(
  events: Pick<EventEmitter, 'emitLater'>,
  part: SecurityEventPart,
  context: SecurityEventContext,
  profile: Pick<Profile, 'event_logging'> | undefined,
): void {
  const now = new Date();
  events.emitLater(() => buildSecurityEvents([part], context, { profile, now }));
}
