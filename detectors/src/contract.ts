// The one contract every detector shares (ARCHITECTURE.md, "Process model"): a typed async function
// from its request to its answer. The gateway pipeline calls it in-process (the function itself) or
// over HTTP (a client with the same signature); a detector service is a thin fastify route around it.
import type { TraceContext } from '@palisade/core';

/** What the caller passes besides the request: cancellation and the trace of the gateway request. */
export interface DetectorCallOptions {
  /** Aborted when the pipeline stops waiting (detector_timeout_ms passed, or the client went away). */
  signal?: AbortSignal;
  /** The gateway's trace id, forwarded over HTTP as X-Trace-ID for correlated logs. */
  traceId?: string;
  /** With traces on: the caller's span context, forwarded over HTTP as W3C traceparent. */
  traceContext?: TraceContext | undefined;
}

/** A detector of one kind: `pii`, `threat`, `content-policy`, `translation`, `content-safety`. */
export interface Detector<Request, Response> {
  readonly kind: DetectorKind;
  detect(request: Request, options?: DetectorCallOptions): Promise<Response>;
}

export const DETECTOR_KINDS = ['pii', 'threat', 'content-policy', 'translation', 'content-safety'] as const;
export type DetectorKind = (typeof DETECTOR_KINDS)[number];
