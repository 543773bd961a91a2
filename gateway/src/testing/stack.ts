// The data plane as real servers on loopback, for end-to-end tests: the mock LLM, the registry (with
// its bundle publisher), the bundle store serving the stored bundle, and the gateway loading it.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';
import { request } from 'undici';
import { createRegistryComponent, type RegistryComponent } from '@palisade/admin';
import {
  createBundleRepository,
  createMemoryStreams,
  createRedisStreams,
  createSecretBox,
  listen,
  type Database,
  type Streams,
} from '@palisade/core';
import { TEST_REDIS_URL } from '@palisade/core/testing';
import { createMockLlm, type MockLlm, type MockLlmOptions } from '@palisade/mock-llm';
import { buildBundleStore, createDatabaseBundleSource } from '@palisade/core';
import { createInspectionDetectors, type InspectionDetectors } from '../pipeline/detectors.js';
import { createGatewayComponent, type GatewayComponent } from '../server/component.js';
import { loadGatewayConfig } from '../server/env.js';

export interface StackOptions {
  db: Database;
  /** `redis`: a real Redis with a throw-away key prefix; default in-process. */
  streams?: 'memory' | 'redis';
  /** The Redis of `streams: 'redis'` (default TEST_REDIS_URL), e.g. a test's own (redis-server.ts). */
  redisUrl?: string;
  /** Gateway variables (AUTH_ENABLED, GATEWAY_MAX_BODY_BYTES, …) over the defaults. */
  gatewayEnv?: Record<string, string>;
  mock?: MockLlmOptions;
  secretKey?: string;
  /** Run the inspection pipeline (default true), in-process unless detectorEnv names service URLs. */
  inspect?: boolean;
  /** PII_DETECTOR_URL, THREAT_DETECTOR_URL, CONTENT_POLICY_URL, DECISION_POINT_URL… (pipeline/detectors.ts). */
  detectorEnv?: Record<string, string>;
  /** Detectors built by the test (e.g. to reach their worker pools); the stack closes them. */
  detectors?: InspectionDetectors;
}

export interface HttpResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: any;
}

export interface ProfiledRoute {
  provider: any;
  profile: any;
  send(body: unknown, headers?: Record<string, string>): Promise<HttpResult>;
}

/** One log line the gateway wrote, parsed. */
export type LogLine = Record<string, unknown> & { msg?: string; level?: number };

export interface Stack {
  mock: MockLlm;
  mockUrl: string;
  registryUrl: string;
  bundleStoreUrl: string;
  gatewayUrl: string;
  registry: RegistryComponent;
  gateway: GatewayComponent;
  streams: Streams;
  /** Gateway log lines so far (JSON, every level from debug). */
  logs: LogLine[];
  /** A registry call with X-Tenant-ID. */
  api(method: string, path: string, body?: unknown, tenant?: string): Promise<HttpResult>;
  /** A call to the gateway. */
  call(method: string, path: string, options?: { body?: unknown; headers?: Record<string, string> }): Promise<HttpResult>;
  /** Creates and activates a provider (on the mock unless told otherwise); resolves once the gateway routes with it. */
  provider(body: Record<string, unknown>, tenant?: string): Promise<any>;
  /**
   * A provider on its own path (at the mock's chat route) with an ACTIVE profile of these settings;
   * resolves once the gateway routes with both. `send` posts a body to that path.
   */
  profiled(profile: Record<string, unknown>, provider?: Record<string, unknown>): Promise<ProfiledRoute>;
  /** Resolves once the gateway holds the registry's current revision. */
  synced(): Promise<string>;
  close(): Promise<void>;
}

async function httpCall(url: string, method: string, body: unknown, headers: Record<string, string>): Promise<HttpResult> {
  const payload = body === undefined ? undefined : typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  const res = await request(url, {
    method: method as 'POST',
    headers: { ...(payload !== undefined && !headers['content-type'] ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(payload !== undefined ? { body: payload } : {}),
  });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers as HttpResult['headers'], text, json };
}

function captureLogger(lines: LogLine[]): Logger {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  return pino({ level: 'debug' }, sink);
}

export async function startStack(options: StackOptions): Promise<Stack> {
  const closers: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const c of closers.splice(0).reverse()) await c().catch(() => undefined);
  };
  try {
    const streams =
      options.streams === 'redis' ? await createRedisStreams({ url: options.redisUrl ?? TEST_REDIS_URL, keyPrefix: `test:${randomUUID()}:` }) : createMemoryStreams();
    closers.push(() => streams.close());
    const secrets = createSecretBox(options.secretKey ?? 'stack-test-key');

    const mock = createMockLlm(options.mock ?? {});
    const mockUrl = await mock.listen(0, '127.0.0.1');
    closers.push(() => mock.close());

    const registry = createRegistryComponent({
      db: options.db,
      pubsub: streams.pubsub,
      events: streams.events,
      secrets,
      env: { HEALTH_CHECK_ENABLED: 'false', EVENT_WRITER_BLOCK_MS: '50' },
      logLevel: 'silent',
      bundleRefreshMs: 0,
    });
    const registryUrl = await listen(registry.app, { port: 0, host: '127.0.0.1' });
    closers.push(() => registry.app.close());
    await registry.start();

    const bundleStore = buildBundleStore({ source: createDatabaseBundleSource(createBundleRepository(options.db)), logLevel: 'silent' });
    const bundleStoreUrl = await listen(bundleStore.app, { port: 0, host: '127.0.0.1' });
    closers.push(() => bundleStore.app.close());

    const logs: LogLine[] = [];
    // Each gateway its own event spill directory (a directory has one holder at a time).
    const spillDir = options.gatewayEnv?.GATEWAY_EVENTS_SPILL_DIR ?? mkdtempSync(join(tmpdir(), 'palisade-spill-'));
    if (options.gatewayEnv?.GATEWAY_EVENTS_SPILL_DIR === undefined) closers.push(async () => rmSync(spillDir, { recursive: true, force: true }));
    const config = loadGatewayConfig({ BUNDLE_STORE_URL: bundleStoreUrl, GATEWAY_CONFIG_POLL_SECONDS: '0', GATEWAY_EVENTS_SPILL_DIR: spillDir, ...options.gatewayEnv });
    const detectors = options.inspect === false ? undefined : (options.detectors ?? (await createInspectionDetectors({ env: options.detectorEnv ?? {} })));
    const gateway = createGatewayComponent({ config, streams, secrets, logger: captureLogger(logs), ...(detectors ? { detectors } : {}) });
    const gatewayUrl = await listen(gateway.app, { port: 0, host: '127.0.0.1' });
    closers.push(() => gateway.app.close());
    await gateway.start();

    const synced = async () => {
      const revision = await registry.publisher.syncNow();
      const deadline = Date.now() + 5_000;
      while (gateway.loader.current()?.revision !== revision) {
        if (Date.now() > deadline) throw new Error(`the gateway did not load revision ${revision}`);
        await new Promise((r) => setTimeout(r, 5));
      }
      return revision;
    };
    await synced();

    const api: Stack['api'] = (method, path, body, tenant = 'default') =>
      httpCall(`${registryUrl}${path}`, method, body, { 'x-tenant-id': tenant });

    const stack: Stack = {
      mock,
      mockUrl,
      registryUrl,
      bundleStoreUrl,
      gatewayUrl,
      registry,
      gateway,
      streams,
      logs,
      api,
      call: (method, path, o = {}) => httpCall(`${gatewayUrl}${path}`, method, o.body, o.headers ?? {}),
      async provider(body, tenant = 'default') {
        const created = await api(
          'POST',
          '/api/v1/providers',
          {
            name: `p-${randomUUID().slice(0, 8)}`,
            provider_type: 'vendor_a',
            match_type: 'url',
            target_base_url: mockUrl,
            mapping_preset: 'vendor_a_chat_completions',
            ...body,
          },
          tenant,
        );
        if (created.status !== 201) throw new Error(`provider create answered ${created.status}: ${created.text}`);
        const activated = await api('POST', `/api/v1/providers/${created.json.id}/activate`, undefined, tenant);
        if (activated.status !== 200) throw new Error(`provider activate answered ${activated.status}: ${activated.text}`);
        await synced();
        return activated.json;
      },
      async profiled(settings, providerBody = {}) {
        const path = `/profiled-${randomUUID().slice(0, 8)}`;
        const provider = await stack.provider({ match_value: path, target_path: '/v1/chat/completions', ...providerBody });
        const created = await api('POST', '/api/v1/profiles', { name: `p-${randomUUID().slice(0, 8)}`, provider_id: provider.id, ...settings });
        if (created.status !== 201) throw new Error(`profile create answered ${created.status}: ${created.text}`);
        const activated = await api('POST', `/api/v1/profiles/${created.json.id}/activate`);
        if (activated.status !== 200) throw new Error(`profile activate answered ${activated.status}: ${activated.text}`);
        await synced();
        return {
          provider,
          profile: activated.json,
          send: (body, headers = {}) => httpCall(`${gatewayUrl}/chat`, 'POST', body, { 'x-original-uri': path, ...headers }),
        };
      },
      synced,
      close,
    };
    return stack;
  } catch (error) {
    await close();
    throw error;
  }
}
