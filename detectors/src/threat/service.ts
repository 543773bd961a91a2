// The Threat Detector service (spec: port 8090, POST /api/v1/detect): a thin route around the in-process
// detector, so HTTP and in-process callers run the same code. /health/ready answers 200 once the model
// is loaded and carries `device` and `model_version`; GET /api/v1/device-info gives the device details.
import { buildDetectorService, type DetectorServiceOptions, type Service } from '@palisade/core';
import type { ThreatDetector } from './detector.js';
import { THREAT_DETECT_PATH, THREAT_LIMITS } from './limits.js';
import type { ThreatDetectRequest } from './schemas.js';

export interface ThreatServiceOptions extends DetectorServiceOptions {
  detector: ThreatDetector;
  /** Closed with the service (default true): the service owns the detector it was given. */
  closeDetector?: boolean;
}

/**
 * POST /api/v1/detect → 200 with ThreatDetectResponse; 400 VALIDATION_ERROR with `details` for a
 * missing or mistyped field, INVALID_REQUEST for a body that is not JSON; 413 over the body limit.
 */
export function buildThreatService(options: ThreatServiceOptions): Service {
  const { detector } = options;
  const service = buildDetectorService(
    {
      name: 'threat-detector',
      path: THREAT_DETECT_PATH,
      bodyLimit: THREAT_LIMITS.bodyLimitBytes,
      readiness: {
        // Loading happened before the service was built; this fails once the detector is closed.
        model: async () => {
          await detector.score('');
        },
      },
      closers: options.closeDetector === false ? [] : [() => detector.close()],
      // A caller that hangs up before the answer stops the scoring of a long prompt between chunks.
      handle: (body, call) => detector.detect(body as ThreatDetectRequest, { signal: call.signal, traceId: call.traceId }),
      deviceInfo: () => ({ status: 'ok', ...detector.deviceInfo() }),
    },
    options,
  );
  const { app } = service;

  // core's /health/ready body lists checks only; the device in use belongs there too (the issue's
  // requirement), so the answer is extended on its way out.
  app.addHook('onSend', async (request, _reply, payload) => {
    if (request.url.split('?')[0] !== '/health/ready' || typeof payload !== 'string') return payload;
    try {
      const body = JSON.parse(payload) as Record<string, unknown>;
      return JSON.stringify({ ...body, device: detector.device, model_version: detector.modelVersion });
    } catch {
      return payload;
    }
  });
  return service;
}
