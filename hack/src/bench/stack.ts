// The processes a scenario measures: the mock upstream, the bare proxy, the OTLP receiver and the
// Palisade stack (control plane and gateway), each started and checked before the load begins.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT } from './options.js';
import { childFailure, freePorts, spawnNode, waitForHttp, waitUntil, type Child } from './processes.js';
import { benchPolicies, CHAT_PATH, INSPECTED_BODY, TENANT, tryChat } from './requests.js';

/** The CLI the stack runs; the bench refuses to start without it. */
export const CLI = join(ROOT, 'cli', 'dist', 'main.js');
const BARE_PROXY = fileURLToPath(new URL('./bare-proxy.js', import.meta.url));
const OTLP_SINK = fileURLToPath(new URL('./otlp-sink.js', import.meta.url));
const HOST = '127.0.0.1';

/** A registry call that must answer `status`; resolves to the JSON answer. */
async function registryCall(control: Child, registry: string, method: string, path: string, status: number, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${registry}${path}`, {
    method,
    headers: { 'x-tenant-id': TENANT, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status !== status) throw childFailure(control, `registry: ${method} ${path} answered ${res.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** The full-inspection profile of the `inspected` scenario, ACTIVE on the provider. */
async function createInspectionProfile(control: Child, registry: string, providerId: string, regexScope: 'both' | 'request' = 'both'): Promise<void> {
  const policyIds: string[] = [];
  for (const policy of benchPolicies(regexScope)) {
    const created = await registryCall(control, registry, 'POST', '/api/v1/content-policies', 201, policy);
    await registryCall(control, registry, 'POST', `/api/v1/content-policies/${String(created.id)}/activate`, 200);
    policyIds.push(String(created.id));
  }
  const profile = await registryCall(control, registry, 'POST', '/api/v1/profiles', 201, {
    name: 'bench-full-inspection',
    provider_id: providerId,
    threat_detection: { enabled: true },
    pii: { enabled: true, mode: 'mask' },
    content_policy_ids: policyIds,
    translation: { enabled: false },
    response_scanning: { enabled: true, pii_mode: 'mask' },
  });
  await registryCall(control, registry, 'POST', `/api/v1/profiles/${String(profile.id)}/activate`, 200);
}

export function log(message: string): void {
  process.stderr.write(`bench: ${message}\n`);
}

/** A fresh mock upstream in its own process. */
export async function startMock(started: Child[]): Promise<{ child: Child; url: string }> {
  const [port] = await freePorts(1);
  const child = spawnNode('mock-llm', [CLI, 'mock-llm'], {
    cwd: ROOT,
    env: { PALISADE_PORT_MOCK_LLM: String(port), PALISADE_HOST: HOST, LOG_LEVEL: 'warn' },
  });
  started.push(child);
  const url = `http://${HOST}:${port}`;
  await waitForHttp(`${url}/health`, { child, timeoutMs: 120_000 });
  await waitUntil('a 200 from the mock chat route', () => tryChat(url), { child, timeoutMs: 5000 });
  return { child, url };
}

export async function startBare(started: Child[], upstream: string): Promise<{ child: Child; url: string }> {
  const [port] = await freePorts(1);
  const child = spawnNode('bare-proxy', [BARE_PROXY, '--upstream', upstream, '--port', String(port), '--host', HOST], { cwd: ROOT });
  started.push(child);
  const url = `http://${HOST}:${port}`;
  // The proxy has no routes of its own: /health goes through it to the mock.
  await waitForHttp(`${url}/health`, { child, timeoutMs: 120_000 });
  await waitUntil('a 200 through the bare proxy', () => tryChat(url), { child, timeoutMs: 5000 });
  return { child, url };
}

/** The OTLP receiver of a traced scenario; returns the OTEL_* variables pointing the gateway at it. */
export async function startOtlpSink(started: Child[]): Promise<Record<string, string>> {
  const [port] = (await freePorts(1)) as [number];
  const child = spawnNode('otlp-sink', [OTLP_SINK, '--port', String(port), '--host', HOST], { cwd: ROOT });
  started.push(child);
  const url = `http://${HOST}:${port}`;
  await waitForHttp(`${url}/stats`, { child, timeoutMs: 30_000 });
  return { OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_ENDPOINT: url, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1', OTEL_SERVICE_NAME: 'palisade-gateway-bench' };
}

/**
 * The Palisade data plane as Kubernetes runs it: the control plane (registry + bundle store, with the
 * embedded database) in one process and the gateway alone in another, which is the process measured
 * and compared with the bare proxy. The gateway picks the configuration up by its ETag poll.
 */
export async function startStack(
  started: Child[],
  upstream: string,
  dataDir: string,
  inspect: boolean,
  profileDir?: string,
  gatewayEnv: Record<string, string> = {},
  regexScope: 'both' | 'request' = 'both',
): Promise<{ child: Child; url: string }> {
  const [registryPort, bundlePort, gatewayPort] = (await freePorts(3)) as [number, number, number];
  const control = spawnNode('palisade registry,bundle-store', [CLI, 'registry,bundle-store'], {
    cwd: ROOT,
    env: {
      PALISADE_PORT_REGISTRY: String(registryPort),
      PALISADE_PORT_BUNDLE_STORE: String(bundlePort),
      PALISADE_DATA_DIR: dataDir,
      PALISADE_HOST: HOST,
      HEALTH_CHECK_ENABLED: 'false',
      LOG_LEVEL: 'warn',
    },
  });
  started.push(control);
  const registry = `http://${HOST}:${registryPort}`;
  const bundleStore = `http://${HOST}:${bundlePort}`;
  // Generous: on a loaded 2-core machine the embedded database alone can take tens of seconds to open.
  for (const url of [registry, bundleStore]) await waitForHttp(`${url}/health/live`, { child: control, timeoutMs: 120_000 });
  const profiling = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  // --expose-gc: the gateway's /internal/heap probe (the live heap after a forced collection).
  const child = spawnNode('palisade gateway', ['--expose-gc', ...profiling, CLI, 'gateway'], {
    cwd: ROOT,
    env: {
      PALISADE_DATA_DIR: dataDir,
      // No event reader runs beside this gateway (no Redis, no event writer): its in-process stream
      // would keep up to 100 000 unread events, each with its 2 KB prompt (about 330 MiB of live heap),
      // which no deployed gateway holds (its events go to Redis). Capped, the figures are the gateway's.
      GATEWAY_EVENTS_STREAM_MAX_LEN: process.env.GATEWAY_EVENTS_STREAM_MAX_LEN ?? '1000',
      PALISADE_PORT_GATEWAY: String(gatewayPort),
      BUNDLE_STORE_URL: bundleStore,
      GATEWAY_CONFIG_POLL_SECONDS: '1',
      PALISADE_HOST: HOST,
      LOG_LEVEL: 'warn',
      ...gatewayEnv,
    },
  });
  started.push(child);
  const gateway = `http://${HOST}:${gatewayPort}`;
  await waitForHttp(`${gateway}/health/live`, { child, timeoutMs: 120_000 });

  const created = await fetch(`${registry}/api/v1/providers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-tenant-id': TENANT },
    body: JSON.stringify({
      name: 'bench',
      provider_type: 'vendor_a',
      match_type: 'url',
      match_value: CHAT_PATH,
      priority: 100,
      target_base_url: upstream,
      target_path: CHAT_PATH,
      mapping_preset: 'vendor_a_chat_completions',
    }),
  });
  const createdText = await created.text();
  if (created.status !== 201) throw childFailure(control, `registry: POST /api/v1/providers answered ${created.status}: ${createdText.slice(0, 500)}`);
  const id = (JSON.parse(createdText) as { id?: unknown }).id;
  if (typeof id !== 'string' && typeof id !== 'number') throw childFailure(control, `registry: the created provider has no id: ${createdText.slice(0, 500)}`);
  const activated = await fetch(`${registry}/api/v1/providers/${encodeURIComponent(String(id))}/activate`, { method: 'POST', headers: { 'x-tenant-id': TENANT } });
  const activatedText = await activated.text();
  if (activated.status !== 200) throw childFailure(control, `registry: POST /api/v1/providers/${id}/activate answered ${activated.status}: ${activatedText.slice(0, 500)}`);

  if (inspect) await createInspectionProfile(control, registry, String(id), regexScope);

  // The configuration reaches the gateway by its next poll.
  if (inspect) {
    // The e-mail is masked: the profile is in force when the decision is sanitize.
    await waitUntil('a sanitized 200 from the gateway with the inspection profile', () => tryChat(gateway, INSPECTED_BODY, 'sanitize'), { child, timeoutMs: 30_000, intervalMs: 200 });
  } else {
    await waitUntil('a 200 from the gateway for the configured provider', () => tryChat(gateway), { child, timeoutMs: 15_000, intervalMs: 200 });
  }
  return { child, url: gateway };
}
