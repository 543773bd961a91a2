import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

// A client-sent trace id is kept only when it is a reasonable token, so logs and headers stay safe.
const TRACE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's trace id: X-Trace-ID when sent and well-formed, else a new UUID (spec: Events rule 3). */
export function traceIdFor(request: IncomingMessage): string {
  const sent = request.headers['x-trace-id'];
  const value = Array.isArray(sent) ? sent[0] : sent;
  return value && TRACE_ID.test(value) ? value : randomUUID();
}
