// The detector-like services: each its fastify app, built with the common options, on its own port.
import type { Service } from '@palisade/core';
import {
  buildContentPolicyService,
  buildContentSafetyService,
  buildPiiService,
  buildThreatService,
  buildTranslationService,
  CONTENT_POLICY_PORT,
  CONTENT_SAFETY_SERVICE_PORT,
  loadContentSafetyEnv,
  loadTranslationEnv,
  PII_DETECTOR_PORT,
  THREAT_DETECTOR_PORT,
  TRANSLATION_SERVICE_PORT,
} from '@palisade/detectors';
import { buildDecisionService, buildNormalizerService, createNormalizer, createTranslationClient, DECISION_POINT_PORT, NORMALIZER_PORT } from '@palisade/gateway';
import type { ComponentContext } from '../context.js';
import { serve, type ComponentDefinition } from './definition.js';

/** What every detector-like service is built with: the process's logger and the internal-call token. */
type ServiceCommon = { logger: ComponentContext['logger']; internalToken: string | undefined };

/** A detector-like service: its fastify app, built with the common options, served on its port. */
function serviceComponent(
  name: string,
  port: number,
  description: string,
  build: (ctx: ComponentContext, common: ServiceCommon) => Promise<{ app: Service['app'] }> | { app: Service['app'] },
): ComponentDefinition {
  return {
    name,
    port,
    description,
    async start(ctx, port, host) {
      const { app } = await build(ctx, { logger: ctx.logger, internalToken: ctx.config.INTERNAL_SERVICE_TOKEN });
      return serve(app, port, host);
    },
  };
}

/** In start order: translation before the normalizer that calls it. */
export const DETECTOR_SERVICES: readonly ComponentDefinition[] = [
  serviceComponent('pii', PII_DETECTOR_PORT, 'PII Detector: every PII type of the spec with checksums, masks and trusted entities', (_ctx, common) => buildPiiService(common)),
  // The model is the context's: shared with the gateway's in-process pipeline, closed with the context.
  serviceComponent('threat', THREAT_DETECTOR_PORT, 'Threat Detector: the ONNX jailbreak / prompt-injection classifier (English and Russian)', async (ctx, common) =>
    buildThreatService({ detector: await ctx.threatDetector(), closeDetector: false, ...common }),
  ),
  serviceComponent('content-policy', CONTENT_POLICY_PORT, 'Content Policy Service: blocklists, allowlists and language policies on RE2', (_ctx, common) => buildContentPolicyService(common)),
  serviceComponent('translation', TRANSLATION_SERVICE_PORT, 'Translation Service: Marian ONNX model from TRANSLATION_MODEL_DIR (503 without one)', (ctx, common) =>
    buildTranslationService({ env: loadTranslationEnv(ctx.env), ...common }),
  ),
  serviceComponent('content-safety', CONTENT_SAFETY_SERVICE_PORT, 'Content Safety: the Qwen3Guard-Gen guard model behind CONTENT_SAFETY_MODEL_URL (503 without one)', (ctx, common) =>
    buildContentSafetyService({ env: loadContentSafetyEnv(ctx.env), ...common }),
  ),
  serviceComponent('normalizer', NORMALIZER_PORT, 'Request Normalizer: homoglyphs, zero-width characters, language, translation', (ctx, common) => {
    // Translation over HTTP: the service started before it in `all`, or TRANSLATION_SERVICE_URL.
    const translationUrl = ctx.env.TRANSLATION_SERVICE_URL || ctx.urls.translation;
    const translator = translationUrl ? createTranslationClient({ url: translationUrl, internalToken: common.internalToken, timeoutMs: 5000 }) : undefined;
    const service = buildNormalizerService({ normalizer: createNormalizer(translator ? { translator } : {}), ...common });
    if (translator) service.app.addHook('onClose', async () => translator.close());
    return service;
  }),
  serviceComponent('decision-point', DECISION_POINT_PORT, 'Decision point (PDP): ALLOW / BLOCK / SANITIZE from a profile and detector results', (_ctx, common) => buildDecisionService(common)),
];
