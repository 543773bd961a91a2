// The PII Detector service (spec: port 8084): POST /api/v1/detect around the in-process detector, on the
// shared service base (health, readiness, metrics, catalogue errors, X-Internal-Token).
import { createService, type Service, type ServiceOptions } from '@palisade/core';
import type { PiiDetector } from './detector.js';
import { PII_MAX_TEXT_BYTES, type PiiDetectRequest } from './schema.js';
import { createPiiWorkerDetector } from './worker-pool.js';

export const PII_DETECTOR_PORT = 8084;
export const PII_DETECT_PATH = '/api/v1/detect';
/**
 * The body may be larger than the text limit (JSON escapes, a system prompt), so fastify's own limit is
 * looser and the 1 MiB rule on `text` answers 413 with a clear message.
 */
export const PII_BODY_LIMIT = 8 * PII_MAX_TEXT_BYTES;

export interface PiiServiceOptions {
  /** Default: texts over PII_INLINE_MAX_CHARS scanned in worker threads, closed with the service. */
  detector?: PiiDetector;
  /** A pino logger to share (the CLI's). */
  logger?: ServiceOptions['logger'];
  logLevel?: string;
  /** When set, every route but health and metrics needs it in X-Internal-Token (DECISIONS.md). */
  internalToken?: string | undefined;
}

export function buildPiiService(options: PiiServiceOptions = {}): Service {
  // A long text is scanned off the event loop, so health checks and short texts are answered meanwhile.
  const owned = options.detector ? undefined : createPiiWorkerDetector();
  const detector = options.detector ?? owned!;
  const service = createService({
    name: 'pii-detector',
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.logLevel ? { logLevel: options.logLevel } : {}),
    internalToken: options.internalToken,
    bodyLimit: PII_BODY_LIMIT,
    errorFormat: 'admin',
  });
  if (owned) service.app.addHook('onClose', () => owned.close());
  service.app.post(PII_DETECT_PATH, async (request) => {
    // The detector validates the body itself (400 for a bad shape, 413 for a text over 1 MiB).
    return detector.detect(request.body as PiiDetectRequest, { traceId: request.id });
  });
  return service;
}
