// Steps 3-5 for the request: normalize, fan out to the detectors, decide, sanitize
// (request-inspector.ts runs them); here the outcome becomes the spec's response headers and the
// body that goes upstream.
import type { FastifyReply } from 'fastify';
import { GATEWAY_HEADERS } from './call-state.js';
import { INSPECTION_HEADER } from './proof-of-inspection.js';
import type { Pseudonyms } from './pseudonyms.js';
import { decisionHeader, type InspectRequest, type RequestInspector } from './request-inspector.js';

export interface InspectedCall {
  /** The body to send upstream: the original, or the sanitized one. */
  body: Buffer;
  /** PII mode pseudonymize: restored in the answer. */
  pseudonyms: Pseudonyms | undefined;
}

/** Throws the block (a catalogue error with its status and headers) when the decision is BLOCK. */
export async function inspectCall(inspector: RequestInspector, reply: FastifyReply, call: InspectRequest): Promise<InspectedCall> {
  const inspection = await inspector(call);
  reply.header(GATEWAY_HEADERS.decision, decisionHeader(inspection.result.effective)).header(GATEWAY_HEADERS.processingMs, String(inspection.processingMs));
  if (inspection.inspectionHeader !== undefined) reply.header(INSPECTION_HEADER, inspection.inspectionHeader);
  return { body: inspection.body, pseudonyms: inspection.pseudonyms };
}
