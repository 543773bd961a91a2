// The control plane's servers: the Profiles Registry (with the demo's providers), the policy bundle
// store, the Admin API and the Event Exporter.
// Each package is imported when its component starts (components/definition.ts says why).
import { COMPONENT_PORTS, buildBundleStore, createBundleRepository, createDatabaseBundleSource, envBool, listen, parseEnv } from '@palisade/core';
import { seedDemo } from '../demo.js';
import { serve, type ComponentDefinition } from './definition.js';

export const REGISTRY: ComponentDefinition = {
  name: 'registry',
  port: COMPONENT_PORTS.registry,
  description: 'Profiles Registry: providers, profiles, API keys, match; publishes the policy bundle; runs the event writer',
  async start(ctx, port, host) {
    const { createRegistryComponent } = await import('@palisade/admin');
    const streams = await ctx.streams();
    const registry = createRegistryComponent({
      db: await ctx.database(),
      pubsub: streams.pubsub,
      appliers: ctx.bundleAppliers,
      events: streams.events,
      secrets: ctx.secrets(),
      env: ctx.env,
      logger: ctx.logger,
      internalToken: ctx.config.INTERNAL_SERVICE_TOKEN,
    });
    const mockUrl = ctx.urls['mock-llm'];
    const { PALISADE_DEMO } = parseEnv({ PALISADE_DEMO: envBool(true) }, ctx.env);
    if (PALISADE_DEMO && mockUrl && (await seedDemo(registry, mockUrl))) {
      ctx.logger.info({ component: 'registry', mock: mockUrl }, 'demo providers created: the OpenAI, Anthropic and Gemini paths of tenant default go to the mock LLM');
    }
    await registry.start();
    return serve(registry.app, port, host);
  },
};

export const BUNDLE_STORE: ComponentDefinition = {
  name: 'bundle-store',
  port: COMPONENT_PORTS['bundle-store'],
  description: 'policy bundle store: serves the bundle the registry built (ETag = revision)',
  async start(ctx, port, host) {
    const source = createDatabaseBundleSource(createBundleRepository(await ctx.database()));
    const internalToken = ctx.bundleStoreToken();
    if (!internalToken) ctx.logger.warn({ component: 'bundle-store' }, 'INTERNAL_SERVICE_TOKEN is not set: the bundle store serves every tenant\'s configuration to any caller');
    const { app } = buildBundleStore({ source, logger: ctx.logger, internalToken });
    return serve(app, port, host);
  },
};

export const ADMIN_API: ComponentDefinition = {
  name: 'admin-api',
  port: COMPONENT_PORTS['admin-api'],
  description: 'Admin API: every resource, roles and tenants, audit log, security events, dashboard, retention; /docs',
  async start(ctx, port, host) {
    const { createAdminApiComponent } = await import('@palisade/admin');
    const streams = await ctx.streams();
    const api = createAdminApiComponent({ db: await ctx.database(), pubsub: streams.pubsub, appliers: ctx.bundleAppliers, secrets: ctx.secrets(), env: ctx.env, logger: ctx.logger });
    await api.start();
    return serve(api.app, port, host);
  },
};

export const EVENT_EXPORTER: ComponentDefinition = {
  name: 'event-exporter',
  port: COMPONENT_PORTS['event-exporter'],
  description: 'Event Exporter: security events to syslog, CEF, webhook, Kafka and files',
  async start(ctx, port, host) {
    const { createEventExporterComponent } = await import('@palisade/admin');
    const exporter = createEventExporterComponent({ db: await ctx.database(), streams: await ctx.streams(), secrets: ctx.secrets(), env: ctx.env, logger: ctx.logger });
    await exporter.start();
    const url = await listen(exporter.service.app, { port, host });
    return {
      url,
      async close() {
        await exporter.stop();
        await exporter.service.app.close();
      },
    };
  },
};
