// The Threat Detector service (spec: port 8090, POST /api/v1/detect): a thin route around the in-process
// detector, so HTTP and in-process callers run the same code. /health/ready answers 200 once the model
// is loaded and carries `device` and `model_version`; GET /api/v1/device-info gives the device details.
import { createService, type Service, type ServiceOptions } from '@palisade/core';
import type { ThreatDetector } from './detector.js';
import { THREAT_DETECT_PATH, THREAT_DEVICE_INFO_PATH, THREAT_LIMITS } from './limits.js';
import type { ThreatDetectRequest } from './schemas.js';

export interface ThreatServiceOptions {
  detector: ThreatDetector;
  /** A pino logger to share (the CLI's). */
  logger?: ServiceOptions['logger'];
  logLevel?: string;
  /** When set, every route but health and metrics needs it in X-Internal-Token (DECISIONS.md). */
  internalToken?: string | undefined;
  /** Closed with the service (default true): the service owns the detector it was given. */
  closeDetector?: boolean;
}

/**
 * POST /api/v1/detect → 200 with ThreatDetectResponse; 400 VALIDATION_ERROR with `details` for a
 * missing or mistyped field, INVALID_REQUEST for a body that is not JSON; 413 over the body limit.
 */
export function buildThreatService(options: ThreatServiceOptions): Service {
  const { detector } = options;
  const service = createService({
    name: 'threat-detector',
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.logLevel ? { logLevel: options.logLevel } : {}),
    internalToken: options.internalToken,
    bodyLimit: THREAT_LIMITS.bodyLimitBytes,
    readiness: {
      // Loading happened before the service was built; this fails once the detector is closed.
      model: async () => {
        await detector.score('');
      },
    },
    closers: options.closeDetector === false ? [] : [() => detector.close()],
  });
  const { app } = service;

  app.post(THREAT_DETECT_PATH, async (request, reply) => {
    const controller = new AbortController();
    // A client that hangs up before the answer stops the scoring of a long prompt between chunks.
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) controller.abort();
    });
    return detector.detect(request.body as ThreatDetectRequest, { signal: controller.signal, traceId: String(request.id) });
  });

  app.get(THREAT_DEVICE_INFO_PATH, async () => ({ status: 'ok', ...detector.deviceInfo() }));

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
