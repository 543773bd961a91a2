// The one shape of every detector-like service (PII, threat, content policy, translation, content
// safety, the normalizer and the decision point): the shared service base (health, readiness, metrics,
// catalogue errors, X-Internal-Token) and one POST route around the in-process code, so that HTTP and
// in-process callers run the same thing; optionally GET /api/v1/device-info.
import type { FastifyBaseLogger } from 'fastify';
import { createService, type Service, type ServiceOptions } from './create-service.js';

/** What the CLI (or a test) passes to every detector service. */
export interface DetectorServiceOptions {
  /** A pino logger to share (the CLI's). */
  logger?: ServiceOptions['logger'];
  logLevel?: string;
  /** When set, every route but health and metrics needs it in X-Internal-Token (DECISIONS.md). */
  internalToken?: string | undefined;
}

export interface DetectorCall {
  /** The request id, as the trace id of the detector's logs. */
  traceId: string;
  /** Aborted when the caller hangs up before the answer (its own timeout): long work stops early. */
  signal: AbortSignal;
  log: FastifyBaseLogger;
}

export interface DetectorServiceDefinition extends Pick<ServiceOptions, 'name' | 'bodyLimit' | 'readiness' | 'closers' | 'livenessPaths' | 'errorFormat'> {
  /** The POST route (e.g. /api/v1/detect). */
  path: string;
  /** Answers one call; the body is validated by the detector itself (400 or 413 in the catalogue's format). */
  handle(body: unknown, call: DetectorCall): Promise<unknown>;
  /** GET /api/v1/device-info, for the services that run a model. */
  deviceInfo?: () => unknown;
}

export const DEVICE_INFO_PATH = '/api/v1/device-info';

export function buildDetectorService(definition: DetectorServiceDefinition, options: DetectorServiceOptions = {}): Service {
  const { path, handle, deviceInfo, ...base } = definition;
  const service = createService({
    ...base,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.logLevel ? { logLevel: options.logLevel } : {}),
    internalToken: options.internalToken,
  });
  service.app.post(path, async (request, reply) => {
    const caller = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableEnded) caller.abort(new Error('the caller went away'));
    });
    return handle(request.body, { traceId: String(request.id), signal: caller.signal, log: request.log });
  });
  if (deviceInfo) service.app.get(DEVICE_INFO_PATH, async () => deviceInfo());
  return service;
}
