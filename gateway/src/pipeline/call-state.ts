// What one proxied call has learned so far (tenant, route, event context), for the events of a call
// that fails or whose upstream answers 5xx (record.ts), and the spec's response headers.
import type { Profile } from '@palisade/core';
import type { InspectRequest } from './request-inspector.js';

/** Response headers of the spec. */
export const GATEWAY_HEADERS = {
  traceId: 'x-service-trace-id',
  upstreamUrl: 'x-service-upstream-url',
  decision: 'x-service-decision',
  processingMs: 'x-service-processing-ms',
  providerId: 'x-provider-id',
  profileId: 'x-profile-id',
} as const;

export interface CallState {
  tenantId: string;
  traceId: string;
  sourceIp: string | null;
  route?: { providerId: string; providerName: string; profile?: Profile | undefined } | undefined;
  context?: InspectRequest['context'] | undefined;
}
