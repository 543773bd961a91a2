// The data plane: the bundled mock LLM (the quickstart's upstream) and the inspecting gateway.
// Each package is imported when its component starts (components/definition.ts says why).
import { COMPONENT_PORTS, ConfigError } from '@palisade/core';
import { serve, type ComponentDefinition } from './definition.js';

export const MOCK_LLM: ComponentDefinition = {
  name: 'mock-llm',
  port: COMPONENT_PORTS['mock-llm'],
  description: 'bundled mock LLM upstream (every vendor format) for the quickstart and tests',
  async start(_ctx, port, host) {
    const { createMockLlm } = await import('@palisade/mock-llm');
    // Nothing can read the recorded requests of a mock in its own process (tests record with the
    // library in theirs): kept (up to 100,000), they grew its heap past 140 MB in one bench run and made
    // every scavenge copy them, 11-31 ms pauses of the upstream that the gateway's latency showed.
    const mock = createMockLlm({ recordLimit: 0 });
    const url = await mock.listen(port, host);
    return { url, close: () => mock.close() };
  },
};

export const GATEWAY: ComponentDefinition = {
  name: 'gateway',
  port: COMPONENT_PORTS.gateway,
  description: 'the inspecting gateway: routes and proxies LLM calls',
  async start(ctx, port, host) {
    const { createGatewayComponent, createInspectionDetectors, loadGatewayConfig } = await import('@palisade/gateway');
    // In one process the bundle store's actual address is known; alone, BUNDLE_STORE_URL says it.
    const bundleStore = ctx.urls['bundle-store'];
    const env = bundleStore && !ctx.env.BUNDLE_STORE_URL ? { ...ctx.env, BUNDLE_STORE_URL: bundleStore } : ctx.env;
    const threat = ctx.env.THREAT_DETECTOR_URL ? undefined : await ctx.threatDetector().catch((error: unknown) => {
      // A model that cannot load makes threat checks detector errors; a broken THREAT_MODEL_DIR stops start-up.
      if (error instanceof ConfigError) throw error;
      return undefined;
    });
    const detectors = await createInspectionDetectors({
      env: ctx.env,
      internalToken: ctx.config.INTERNAL_SERVICE_TOKEN,
      logger: ctx.logger,
      ...(threat ? { threat } : {}),
    });
    const gateway = createGatewayComponent({
      detectors,
      config: loadGatewayConfig(env),
      streams: await ctx.streams(),
      secrets: ctx.secrets(),
      appliers: ctx.bundleAppliers,
      logger: ctx.logger,
      internalToken: ctx.bundleStoreToken(),
      dataDir: ctx.config.PALISADE_DATA_DIR,
    });
    await gateway.start();
    return serve(gateway.app, port, host);
  },
};
