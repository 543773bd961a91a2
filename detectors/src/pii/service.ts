// The PII Detector service (spec: port 8084): POST /api/v1/detect around the in-process detector, on the
// shared service base (health, readiness, metrics, catalogue errors, X-Internal-Token).
import { buildDetectorService, type DetectorServiceOptions, type Service, COMPONENT_PORTS } from '@palisade/core';
import type { PiiDetector } from './detector.js';
import { PII_MAX_TEXT_BYTES, type PiiDetectRequest } from './schema.js';
import { createPiiWorkerDetector } from './worker-pool.js';

export const PII_DETECTOR_PORT = COMPONENT_PORTS.pii;
export const PII_DETECT_PATH = '/api/v1/detect';
/**
 * The body may be larger than the text limit (JSON escapes, a system prompt), so fastify's own limit is
 * looser and the 1 MiB rule on `text` answers 413 with a clear message.
 */
export const PII_BODY_LIMIT = 8 * PII_MAX_TEXT_BYTES;

export interface PiiServiceOptions extends DetectorServiceOptions {
  /** Default: texts over PII_INLINE_MAX_CHARS scanned in worker threads, closed with the service. */
  detector?: PiiDetector;
}

export function buildPiiService(options: PiiServiceOptions = {}): Service {
  // A long text is scanned off the event loop, so health checks and short texts are answered meanwhile.
  const owned = options.detector ? undefined : createPiiWorkerDetector();
  const detector = options.detector ?? owned!;
  return buildDetectorService(
    {
      name: 'pii-detector',
      path: PII_DETECT_PATH,
      bodyLimit: PII_BODY_LIMIT,
      errorFormat: 'admin',
      closers: owned ? [() => owned.close()] : [],
      // The detector validates the body itself (400 for a bad shape, 413 for a text over 1 MiB).
      handle: (body, call) => detector.detect(body as PiiDetectRequest, { traceId: call.traceId }),
    },
    options,
  );
}
