// Step 2: what the call says. The body must be a JSON object; a profiled call's prompt, messages,
// system prompt and model are read with the provider's mapping (inspected-text.ts), and every string
// of the body when the mapping finds none. Without a profile nothing is extracted: the call passes
// uninspected (spec).
import type { FastifyRequest } from 'fastify';
import { EXTRACTION_EMPTY_WARNING, inSpanSync, isExtractionEmpty, PalisadeError, type Tracer } from '@palisade/core';
import { sourceIpOf } from '../server/request-info.js';
import { EventPrompt } from '../events/index.js';
import { extractForInspection } from './inspected-text.js';
import type { InspectRequest } from './request-inspector.js';
import type { MatchedRoute } from './route.js';

export function parseJsonBody(raw: Buffer | undefined): unknown {
  if (!raw || raw.length === 0) throw new PalisadeError('INVALID_REQUEST', { message: 'The request body must be a JSON object' });
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (cause) {
    throw new PalisadeError('INVALID_REQUEST', { message: 'The request body is not valid JSON', cause });
  }
}

export interface ExtractedCall {
  extraction: InspectRequest['extraction'];
  /** The events' view of the call (its masked prompt, the provider, the profile). */
  context: InspectRequest['context'];
}

export function extractCall(
  tracer: Tracer | undefined,
  request: FastifyRequest,
  route: MatchedRoute & { mapping: NonNullable<MatchedRoute['mapping']> },
  profileId: string,
  tenantId: string,
  json: unknown,
): ExtractedCall {
  const { provider } = route;
  const { extraction, everyString } = inSpanSync(tracer, request.traceContext, 'gateway.extract', () => extractForInspection(route.mapping, json));
  if (everyString || isExtractionEmpty(extraction)) {
    request.log.warn({ provider_id: provider.id, mapping_preset: provider.mapping_preset ?? null, tenant_id: tenantId, every_string_inspected: everyString }, EXTRACTION_EMPTY_WARNING);
  }
  return {
    extraction,
    context: {
      source_ip: sourceIpOf(request.headers, request.socket.remoteAddress),
      provider_id: provider.id,
      provider_name: provider.name,
      profile_id: profileId,
      model: extraction.model,
      user_prompt: new EventPrompt(extraction.user_messages.at(-1) ?? extraction.prompt),
    },
  };
}
