// The detector-like services: each its fastify app, built with the common options, on its own port.
// Each package is imported when its component starts (components/definition.ts says why).
import { COMPONENT_PORTS, type ComponentName, type Service } from '@palisade/core';
import type { ComponentContext } from '../context.js';
import { serve, type ComponentDefinition } from './definition.js';

/** What every detector-like service is built with: the process's logger and the internal-call token. */
type ServiceCommon = { logger: ComponentContext['logger']; internalToken: string | undefined };

/** A detector-like service: its fastify app, built with the common options, served on its port. */
function serviceComponent(
  name: ComponentName,
  description: string,
  build: (ctx: ComponentContext, common: ServiceCommon) => Promise<{ app: Service['app'] }> | { app: Service['app'] },
): ComponentDefinition {
  return {
    name,
    port: COMPONENT_PORTS[name],
    description,
    async start(ctx, port, host) {
      const { app } = await build(ctx, { logger: ctx.logger, internalToken: ctx.config.INTERNAL_SERVICE_TOKEN });
      return serve(app, port, host);
    },
  };
}

const detectors = () => import('@palisade/detectors');

/** In start order: translation before the normalizer that calls it. */
export const DETECTOR_SERVICES: readonly ComponentDefinition[] = [
  serviceComponent('pii', 'PII Detector: every PII type of the spec with checksums, masks and trusted entities', async (_ctx, common) => (await detectors()).buildPiiService(common)),
  // The model is the context's: shared with the gateway's in-process pipeline, closed with the context.
  serviceComponent('threat', 'Threat Detector: the ONNX jailbreak / prompt-injection classifier (English and Russian)', async (ctx, common) =>
    (await detectors()).buildThreatService({ detector: await ctx.threatDetector(), closeDetector: false, ...common }),
  ),
  serviceComponent('content-policy', 'Content Policy Service: blocklists, allowlists and language policies on RE2', async (_ctx, common) => (await detectors()).buildContentPolicyService(common)),
  serviceComponent('translation', 'Translation Service: Marian ONNX model from TRANSLATION_MODEL_DIR (503 without one)', async (ctx, common) => {
    const { buildTranslationService, loadTranslationEnv } = await detectors();
    return buildTranslationService({ env: loadTranslationEnv(ctx.env), ...common });
  }),
  serviceComponent('content-safety', 'Content Safety: the Qwen3Guard-Gen guard model behind CONTENT_SAFETY_MODEL_URL (503 without one)', async (ctx, common) => {
    const { buildContentSafetyService, loadContentSafetyEnv } = await detectors();
    return buildContentSafetyService({ env: loadContentSafetyEnv(ctx.env), ...common });
  }),
  serviceComponent('normalizer', 'Request Normalizer: homoglyphs, zero-width characters, language, translation', async (ctx, common) => {
    const { buildNormalizerService, createNormalizer, createTranslationClient } = await import('@palisade/gateway');
    // Translation over HTTP: the service started before it in `all`, or TRANSLATION_SERVICE_URL.
    const translationUrl = ctx.env.TRANSLATION_SERVICE_URL || ctx.urls.translation;
    const translator = translationUrl ? createTranslationClient({ url: translationUrl, internalToken: common.internalToken, timeoutMs: 5000 }) : undefined;
    const service = buildNormalizerService({ normalizer: createNormalizer(translator ? { translator } : {}), ...common });
    if (translator) service.app.addHook('onClose', async () => translator.close());
    return service;
  }),
  serviceComponent('decision-point', 'Decision point (PDP): ALLOW / BLOCK / SANITIZE from a profile and detector results', async (_ctx, common) => (await import('@palisade/gateway')).buildDecisionService(common)),
];
