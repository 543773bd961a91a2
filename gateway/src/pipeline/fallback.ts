// Routing rule 6: no provider matches, and the caller named a backend itself (X-Real-Backend and
// X-Real-Backend-Path, when the fallback is enabled): the original body and Authorization go there,
// uninspected.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PalisadeError } from '@palisade/core';
import { firstHeader, GATEWAY_CONTROL_HEADERS } from '../server/request-info.js';
import type { UpstreamClient } from '../upstream/index.js';
import { GATEWAY_HEADERS } from './call-state.js';
import { abortOnClientClose, callUpstream, sendAnswer } from './proxy.js';

/** request_timeout_ms of the fallback route, which has no provider: the provider default. */
export const FALLBACK_TIMEOUT_MS = 30_000;

/** X-Real-Backend is scheme + host (and port) only: no path, no trailing slash (spec request headers). */
function fallbackUrl(backend: string, path: string): string {
  const url = URL.canParse(backend) ? new URL(backend) : null;
  const origin = url && (url.protocol === 'http:' || url.protocol === 'https:') ? url.origin : null;
  if (!origin || origin !== backend) {
    throw new PalisadeError('INVALID_REQUEST', { message: 'X-Real-Backend must be a scheme and host only, e.g. https://llm.example.com' });
  }
  if (!path.startsWith('/')) throw new PalisadeError('INVALID_REQUEST', { message: 'X-Real-Backend-Path must start with /' });
  return backend + path;
}

export async function proxyToNamedBackend(
  deps: { upstream: UpstreamClient; fallbackEnabled: boolean },
  request: FastifyRequest,
  reply: FastifyReply,
  tenantId: string,
): Promise<FastifyReply> {
  const headers = request.headers;
  const backend = deps.fallbackEnabled ? firstHeader(headers, 'x-real-backend') : undefined;
  if (!backend) throw new PalisadeError('NO_BACKEND_CONFIGURED', { message: `No active provider of tenant ${tenantId} matches this request and X-Real-Backend is absent` });
  const path = firstHeader(headers, 'x-real-backend-path');
  if (!path) throw new PalisadeError('NO_BACKEND_PATH_CONFIGURED');
  const url = fallbackUrl(backend, path);
  request.traceId = request.id;
  reply.header(GATEWAY_HEADERS.traceId, request.id);
  const raw = request.body as Buffer | undefined;
  const answer = await callUpstream(deps.upstream, reply, {
    url,
    headers,
    stripHeaders: GATEWAY_CONTROL_HEADERS,
    ...(raw ? { body: raw } : {}),
    timeoutMs: FALLBACK_TIMEOUT_MS,
    auth: undefined,
    abortWith: abortOnClientClose(reply),
  });
  reply.header(GATEWAY_HEADERS.upstreamUrl, url);
  return sendAnswer(reply, answer);
}
