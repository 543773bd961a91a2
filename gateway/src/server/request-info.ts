// What the gateway reads from the request headers the front proxy sends (spec, "Gateway", request
// headers). Fastify gives lower-case header names.
import type { IncomingHttpHeaders } from 'node:http';
import { PalisadeError, TENANT_ID_MAX_LENGTH, TENANT_ID_PATTERN } from '@palisade/core';

export const DEFAULT_TENANT = 'default';

/** Headers that steer the gateway and mean nothing to an LLM backend. */
export const GATEWAY_CONTROL_HEADERS: readonly string[] = ['x-original-uri', 'x-real-backend', 'x-real-backend-path', 'x-internal-token'];

export function firstHeader(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first === '' ? undefined : first;
}

/**
 * X-Tenant-ID, `default` when absent (spec). An id outside the tenant charset or over 255 characters is
 * a 400 that does not repeat it: it would reach error messages, logs and events otherwise.
 */
export function tenantOf(headers: IncomingHttpHeaders): string {
  const tenant = firstHeader(headers, 'x-tenant-id')?.trim() || DEFAULT_TENANT;
  if (tenant.length > TENANT_ID_MAX_LENGTH || !TENANT_ID_PATTERN.test(tenant)) {
    throw new PalisadeError('INVALID_REQUEST', {
      message: `X-Tenant-ID must be 1-${TENANT_ID_MAX_LENGTH} characters: letters, digits and . _ : @ - (not starting with . : @ -)`,
    });
  }
  return tenant;
}

/**
 * X-Original-URI, else the path the request came in on: `POST /v1/chat/completions` straight from an
 * SDK routes as if the front proxy had sent that path.
 */
export function originalUriOf(headers: IncomingHttpHeaders, requestUrl: string): string {
  return firstHeader(headers, 'x-original-uri') ?? requestUrl;
}

/** X-Real-IP, else the first X-Forwarded-For hop, else the socket's address (spec: source_ip). */
export function sourceIpOf(headers: IncomingHttpHeaders, socketAddress: string | undefined): string | null {
  const realIp = firstHeader(headers, 'x-real-ip')?.trim();
  if (realIp) return realIp;
  const forwarded = firstHeader(headers, 'x-forwarded-for');
  const firstHop = forwarded?.split(',')[0]?.trim();
  if (firstHop) return firstHop;
  return socketAddress ?? null;
}
