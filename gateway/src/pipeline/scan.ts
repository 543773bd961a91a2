// Step 7: the answer. A streamed answer of a profiled call is scanned on the fly as it is relayed
// (streaming/); a buffered one is scanned whole (response-scanner.ts) when the profile asks. Either
// way pseudonymised values come back to the client as they were.
import type { FastifyReply } from 'fastify';
import { inSpan, type Tracer } from '@palisade/core';
import type { UpstreamResponse } from '../upstream/index.js';
import { INSPECTION_HEADER } from './proof-of-inspection.js';
import { sendAnswer } from './proxy.js';
import { restoreAnswer, type Pseudonyms } from './pseudonyms.js';
import type { ResponseScanner, ScanResponse } from './response-scanner.js';
import { extend } from '../objects.js';

/** Scans a 2xx answer of a profiled call, then sends it (sanitized, restored) to the client. */
export async function scanAndSend(
  deps: { scanner?: ResponseScanner | undefined; tracer?: Tracer | undefined },
  reply: FastifyReply,
  answer: UpstreamResponse,
  scan: Omit<ScanResponse, 'answer' | 'traceContext'> | null,
  parent: ScanResponse['traceContext'],
  pseudonyms: Pseudonyms | undefined,
): Promise<FastifyReply> {
  if (scan && deps.scanner && answer.status >= 200 && answer.status < 300) {
    const scanner = deps.scanner;
    const scanned = await inSpan(deps.tracer, parent, 'gateway.response_scan', (traceContext) => scanner(extend(scan, { answer, traceContext })));
    if (scanned?.inspectionHeader) {
      const requestSide = reply.getHeader(INSPECTION_HEADER);
      reply.header(INSPECTION_HEADER, typeof requestSide === 'string' && requestSide ? `${requestSide}, ${scanned.inspectionHeader}` : scanned.inspectionHeader);
    }
    if (scanned) return sendAnswer(reply, extend(answer, { body: restoreAnswer(scanned.body, answer.contentType, pseudonyms) }));
  }
  return sendAnswer(reply, pseudonyms ? extend(answer, { body: restoreAnswer(answer.body, answer.contentType, pseudonyms) }) : answer);
}
