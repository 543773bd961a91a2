import {
  ADMIN_API_PORT,
  AUTH_PROXY_PORT,
  createAdminApiComponent,
  createAuthProxyComponent,
  createIdpComponent,
  IDP_PORT,
  createEventExporterComponent,
  createEventWriterComponent,
  createRegistryComponent,
  createReportWorker,
  registerEventWriterMetrics,
  EVENT_EXPORTER_PORT,
  REGISTRY_PORT,
} from '@palisade/admin';
import { BUNDLE_STORE_PORT, buildBundleStore, ConfigError, createBundleRepository, createDatabaseBundleSource, createService, envBool, envInt, listen, parseEnv, type Database, type Service, type ServiceMetrics } from '@palisade/core';
import {
  buildContentPolicyService,
  buildContentSafetyService,
  CONTENT_SAFETY_SERVICE_PORT,
  loadContentSafetyEnv,
  buildPiiService,
  buildThreatService,
  buildTranslationService,
  CONTENT_POLICY_PORT,
  loadTranslationEnv,
  PII_DETECTOR_PORT,
  THREAT_DETECTOR_PORT,
  TRANSLATION_SERVICE_PORT,
} from '@palisade/detectors';
import {
  buildDecisionService,
  buildNormalizerService,
  createGatewayComponent,
  createInspectionDetectors,
  createNormalizer,
  createTranslationClient,
  DECISION_POINT_PORT,
  GATEWAY_PORT,
  loadGatewayConfig,
  NORMALIZER_PORT,
} from '@palisade/gateway';
import { createMockLlm } from '@palisade/mock-llm';
import { createOperatorComponent } from '@palisade/operator';
import { buildUiServer, DEFAULT_WEB_ROOT, loadUiEnv, UI_PORT } from '@palisade/ui';
import type { ComponentContext } from './context.js';
import { seedDemo } from './demo.js';

export interface RunningComponent {
  url: string;
  close(): Promise<void>;
}

export interface ComponentDefinition {
  name: string;
  /** The port of the spec's component table. */
  port: number;
  description: string;
  /** false: not started by `palisade all` (it needs a cluster, or another component already does its work); a function decides by the environment. */
  inAll?: boolean | ((env: NodeJS.ProcessEnv) => boolean);
  start(ctx: ComponentContext, port: number, host: string): Promise<RunningComponent>;
}

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

/** Ports of our own for the two components without an HTTP API (health and metrics only). */
export const EVENT_WRITER_PORT = 8092;
export const OPERATOR_PORT = 8093;
export const REPORT_WORKER_PORT = 8094;

/**
 * Every component the CLI can start, in start order (dependencies first). A component is added here
 * when it exists; `palisade all` starts all of them, each on its own port.
 */
export const COMPONENTS: readonly ComponentDefinition[] = [
  {
    name: 'mock-llm',
    port: 8070,
    description: 'bundled mock LLM upstream (every vendor format) for the quickstart and tests',
    async start(_ctx, port, host) {
      const mock = createMockLlm();
      const url = await mock.listen(port, host);
      return { url, close: () => mock.close() };
    },
  },
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
  {
    name: 'registry',
    port: REGISTRY_PORT,
    description: 'Profiles Registry: providers, profiles, API keys, match; publishes the policy bundle; runs the event writer',
    async start(ctx, port, host) {
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
  },
  {
    name: 'bundle-store',
    port: BUNDLE_STORE_PORT,
    description: 'policy bundle store: serves the bundle the registry built (ETag = revision)',
    async start(ctx, port, host) {
      const source = createDatabaseBundleSource(createBundleRepository(await ctx.database()));
      const internalToken = ctx.bundleStoreToken();
      if (!internalToken) ctx.logger.warn({ component: 'bundle-store' }, 'INTERNAL_SERVICE_TOKEN is not set: the bundle store serves every tenant\'s configuration to any caller');
      const { app } = buildBundleStore({ source, logger: ctx.logger, internalToken });
      return serve(app, port, host);
    },
  },
  {
    name: 'gateway',
    port: GATEWAY_PORT,
    description: 'the inspecting gateway: routes and proxies LLM calls',
    async start(ctx, port, host) {
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
  },
  {
    name: 'admin-api',
    port: ADMIN_API_PORT,
    description: 'Admin API: every resource, roles and tenants, audit log, security events, dashboard, retention; /docs',
    async start(ctx, port, host) {
      const streams = await ctx.streams();
      const api = createAdminApiComponent({ db: await ctx.database(), pubsub: streams.pubsub, appliers: ctx.bundleAppliers, secrets: ctx.secrets(), env: ctx.env, logger: ctx.logger });
      await api.start();
      return serve(api.app, port, host);
    },
  },
  {
    name: 'event-exporter',
    port: EVENT_EXPORTER_PORT,
    description: 'Event Exporter: security events to syslog, CEF, webhook, Kafka and files',
    async start(ctx, port, host) {
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
  },
  {
    name: 'ui',
    port: UI_PORT,
    description: 'Admin UI: the security console (the built single-page app; /api/* forwarded to the Admin API)',
    async start(ctx, port, host) {
      // In one process the Admin API's actual address is known; alone, ADMIN_API_URL says it.
      const adminApiUrl = ctx.env.ADMIN_API_URL || ctx.urls['admin-api'] || loadUiEnv(ctx.env).ADMIN_API_URL!;
      const { app } = buildUiServer({ webRoot: DEFAULT_WEB_ROOT, adminApiUrl, logger: ctx.logger });
      // UI_PORT is this component's own variable (PALISADE_PORT_UI, like every component's, wins).
      return serve(app, ctx.env.UI_PORT && !ctx.env.PALISADE_PORT_UI ? loadUiEnv(ctx.env).UI_PORT : port, host);
    },
  },
  {
    name: 'idp',
    port: IDP_PORT,
    inAll: loginEnabled,
    description: 'OpenID Connect identity provider: login forms, users of the Admin API, tokens for the authentication proxy',
    async start(ctx, port, host) {
      // The proxy of this deployment is its client: its callback, on the proxy's configured port, is
      // the redirect URI the IdP accepts (unless IDP_REDIRECT_URIS says otherwise).
      const proxyPort = portFor(findComponent('auth-proxy')!, ctx.env);
      const callbacks = proxyPort ? { IDP_REDIRECT_URIS: `http://localhost:${proxyPort}/oauth2/callback,http://127.0.0.1:${proxyPort}/oauth2/callback` } : {};
      const env = { IDP_ISSUER: `http://localhost:${port}`, ...callbacks, ...ctx.env };
      const idp = await createIdpComponent({ db: await ctx.database(), secrets: ctx.secrets(), env, logger: ctx.logger });
      const admin = await idp.start();
      if (admin.created) ctx.logger.info({ component: 'idp', email: admin.email }, `initial administrator ${admin.email} created (change its password after the first login)`);
      // Shown once on the terminal, never logged: the only time this password exists in clear.
      if (admin.generatedPassword) process.stdout.write(`\nInitial administrator: ${admin.email}\nGenerated password (shown once): ${admin.generatedPassword}\n\n`);
      return serve(idp.app, port, host);
    },
  },
  {
    name: 'auth-proxy',
    port: AUTH_PROXY_PORT,
    inAll: loginEnabled,
    description: 'authentication proxy: OIDC login and sessions in front of the Admin UI and API (oauth2-proxy compatible headers)',
    async start(ctx, port, host) {
      // In one process the IdP, UI and Admin API addresses are known; alone, the AUTH_PROXY_* variables say them.
      const idpPort = ctx.urls.idp ? new URL(ctx.urls.idp).port : undefined;
      const issuer = ctx.env.IDP_ISSUER ?? (idpPort ? `http://localhost:${idpPort}` : undefined);
      const env = {
        AUTH_PROXY_REDIRECT_URL: `http://localhost:${port}/oauth2/callback`,
        ...(issuer ? { AUTH_PROXY_ISSUER_URL: issuer } : {}),
        ...(ctx.urls['admin-api'] ? { AUTH_PROXY_API_UPSTREAM: ctx.urls['admin-api'] } : {}),
        ...(ctx.urls.ui || ctx.urls['admin-api'] ? { AUTH_PROXY_UPSTREAM: ctx.urls.ui ?? ctx.urls['admin-api'] } : {}),
        ...ctx.env,
      };
      const proxy = createAuthProxyComponent({ env, logger: ctx.logger });
      const running = await serve(proxy.app, port, host);
      const email = ctx.env.ADMIN_USER_EMAIL ?? 'admin@palisade.localhost';
      ctx.logger.info({ component: 'auth-proxy' }, `open ${new URL(proxy.config.AUTH_PROXY_REDIRECT_URL!).origin}/ and sign in as ${email}`);
      return running;
    },
  },
  backgroundWorker({
    name: 'event-writer',
    port: EVENT_WRITER_PORT,
    description: 'event writer alone (the registry runs one too): security events from the stream into PostgreSQL',
    create: async (ctx, db) => createEventWriterComponent({ db, streams: await ctx.streams(), env: ctx.env, logger: ctx.logger }),
    metrics: (registry, component) => registerEventWriterMetrics(registry, () => component.writer.stats),
  }),
  backgroundWorker({
    name: 'report-worker',
    port: REPORT_WORKER_PORT,
    description: 'report worker alone (the admin API runs one too): generates requested PDF and CSV reports',
    create: async (ctx, db) => createReportWorker({ db, logger: ctx.logger.child({ service: 'report-worker' }) }),
  }),
  backgroundWorker({
    name: 'operator',
    port: OPERATOR_PORT,
    description: 'Kubernetes operator: Provider, SecurityProfile, ContentPolicy, EventExporter resources into the registry',
    create: async (ctx, db) => createOperatorComponent({ db, secrets: ctx.secrets(), pubsub: (await ctx.streams()).pubsub, env: ctx.env, logger: ctx.logger }),
  }),
];

/** The spec's switch: AUTH_PROXY_ENABLED=true puts the login in front of the Admin API. */
function loginEnabled(env: NodeJS.ProcessEnv): boolean {
  return env.AUTH_PROXY_ENABLED === 'true';
}

/**
 * A component without an HTTP API of its own (a loop over the database or the stream): not in
 * `palisade all`, whose other components run the same work; started alone it serves health and metrics.
 */
function backgroundWorker<W extends { start(): Promise<unknown>; stop(): Promise<unknown> }>(definition: {
  name: string;
  port: number;
  description: string;
  create(ctx: ComponentContext, db: Database): Promise<W>;
  /** Its own metrics beside the service's, on the same /metrics. */
  metrics?: (registry: ServiceMetrics['registry'], worker: W) => void;
}): ComponentDefinition {
  const { name, port, description } = definition;
  return {
    name,
    port,
    description,
    inAll: false,
    async start(ctx, port, host) {
      const db = await ctx.database();
      const worker = await definition.create(ctx, db);
      await worker.start();
      const { app, metrics } = createService({ name, logger: ctx.logger, readiness: { database: () => db.ping() } });
      definition.metrics?.(metrics.registry, worker);
      const url = await listen(app, { port, host });
      return {
        url,
        async close() {
          await worker.stop();
          await app.close();
        },
      };
    },
  };
}

/** Listens and hands back what `palisade` needs to stop the app. */
async function serve(app: Service['app'], port: number, host: string): Promise<RunningComponent> {
  const url = await listen(app, { port, host });
  return { url, close: () => app.close() };
}

export function findComponent(name: string): ComponentDefinition | undefined {
  return COMPONENTS.find((c) => c.name === name);
}

/** PALISADE_PORT_<NAME> (e.g. PALISADE_PORT_MOCK_LLM) overrides a component's port; 0 picks a free one. */
export function portFor(component: ComponentDefinition, env: NodeJS.ProcessEnv): number {
  const variable = `PALISADE_PORT_${component.name.toUpperCase().replace(/-/g, '_')}`;
  return parseEnv({ [variable]: envInt(0, 65535, component.port) }, env)[variable] as number;
}
