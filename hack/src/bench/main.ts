// `npm run bench`: the gateway's overhead over a bare pass-through proxy, in one run.
//
//   direct   autocannon -> mock upstream
//   bare     autocannon -> bare proxy (bare-proxy.ts)              -> mock upstream
//   gateway  autocannon -> Palisade gateway process (one provider, no profile) -> mock upstream;
//            the control plane (registry, bundle store) runs in a process of its own
//   inspected the same with an ACTIVE profile doing full CPU inspection: every PII type in
//            mask mode, 20 keyword + 20 regex content-policy rules on both sides, the threat model,
//            homoglyph normalization and response scanning, on a 2 KB prompt echoed as a 2 KB answer
//   gateway-traced, inspected-traced  the same two with OpenTelemetry traces on (10 % sampled,
//            parentbased_traceidratio) exported over OTLP/HTTP to a local receiver process (otlp-sink.ts):
//            the throughput ratio to the untraced run is the cost of tracing (target >= 0.95)
//   adversarial  every CPU detector in-process on generated worst-case inputs at 64 KiB and 1 MiB
//            (adversarial.ts, in a process of its own): linear time on any input
//
// Each scenario gets a fresh mock upstream process, the bare proxy and the Palisade stack run in
// their own processes too, and autocannon runs here; scenarios run one after the other, and a
// scenario's processes are stopped before the next one starts, so the 2 cores of a small machine
// are shared the same way in every scenario. The summary goes to stdout, progress to stderr, and
// the figures to .bench/last-run.json. Exit code 0 even when a target is missed; 1 only when a
// scenario could not run, 2 on bad arguments.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { childFailure, freePorts, installCleanup, readCpuSeconds, readMemory, spawnNode, stopAll, waitForHttp, waitUntil, type Child } from './processes.js';
import { buildReport, failed, renderReport, SCENARIOS, TRACED_SCENARIOS, type ScenarioName, type ScenarioOutcome } from './report.js';
import { scrape, stageSplit, type StageSplit } from './metrics-scrape.js';
import { readHeap, runSoak } from './heap.js';
import { runPaced } from './paced.js';
import { runScenario, type LoadSpec, type Measurement } from './scenario.js';
import { renderStreaming, runStreamingScenario, type StreamingResult } from './streaming.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = join(ROOT, 'cli', 'dist', 'main.js');
const BARE_PROXY = fileURLToPath(new URL('./bare-proxy.js', import.meta.url));
const OTLP_SINK = fileURLToPath(new URL('./otlp-sink.js', import.meta.url));
const DETECTOR_BENCH = join(ROOT, 'detectors', 'dist', 'bench', 'main.js');
const ADVERSARIAL_BENCH = fileURLToPath(new URL('./adversarial-main.js', import.meta.url));
const ADVERSARIAL = 'adversarial';
const STREAMING = 'streaming';
const OUT_FILE = join(ROOT, '.bench', 'last-run.json');
const HOST = '127.0.0.1';
const TENANT = 'default';
const CHAT_PATH = '/v1/chat/completions';

const USAGE = `usage: npm run bench -- [options]

  --duration <s>      measured seconds per scenario (default 10, or BENCH_DURATION)
  --warmup <s>        warm-up seconds per scenario, not measured (default 3, or BENCH_WARMUP)
  --connections <n>   concurrent connections (default 50, or BENCH_CONNECTIONS)
  --latency-connections <n>
                      then the same request one at a time on n connections, for latency without
                      queueing (default 1, or BENCH_LATENCY_CONNECTIONS; 0 = skip that phase)
  --only <list>       comma-separated subset of ${SCENARIOS.join(',')},streaming,adversarial (default: all)
  --stream-runs <n>   streaming scenario: streams through each of the bare proxy and the gateway
                      (default 10, or BENCH_STREAM_RUNS); the answer is 500 tokens, one every
                      --stream-token-ms (default 4, or BENCH_STREAM_TOKEN_MS)
  --families <list>   adversarial suite: only the input families whose name contains one of these
  --out <file>        JSON results file (default .bench/last-run.json)
  --no-detectors      skip the detectors' in-process speed figures printed at the end
  --soak <s>          after the inspected scenario, a paced soak of s seconds (600 for the
                      10-minute soak; default 0 = none) at half the flat-out throughput, sampling
                      the gateway's live JS heap after a forced collection: flat after warm-up?
  --profile <dir>     write a V8 CPU profile of each gateway process into dir (open in Chrome
                      DevTools); profiling slows the gateway, so figures of such a run are not comparable
`;

interface Options {
  detectors: boolean;
  latencyConnections: number;
  durationSec: number;
  warmupSec: number;
  connections: number;
  only: ScenarioName[];
  /** Run the adversarial suite (adversarial-main.ts). */
  adversarial: boolean;
  /** Run the streaming scenario (streaming.ts): runs per side and the mock's pace. */
  streaming: { runs: number; tokenDelayMs: number } | undefined;
  families: string | undefined;
  out: string;
  /** A directory for the gateway's --cpu-prof output. */
  profileDir: string | undefined;
  /** Seconds of paced soak after the inspected scenario (0: none). */
  soakSec: number;
}

class UsageError extends Error {}

function parseOptions(argv: string[], env: NodeJS.ProcessEnv): Options | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      'latency-connections': { type: 'string' },
      only: { type: 'string' },
      families: { type: 'string' },
      out: { type: 'string' },
      'no-detectors': { type: 'boolean' },
      profile: { type: 'string' },
      soak: { type: 'string' },
      'stream-runs': { type: 'string' },
      'stream-token-ms': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  const number = (name: string, raw: string | undefined, fallback: number, min: number, integer: boolean) => {
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < min || (integer && !Number.isInteger(value))) throw new UsageError(`bad ${name} "${raw}"`);
    return value;
  };
  const only = (values.only ?? [...SCENARIOS, STREAMING, ADVERSARIAL].join(','))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const known: readonly string[] = [...SCENARIOS, STREAMING, ADVERSARIAL];
  for (const name of only) if (!known.includes(name)) throw new UsageError(`unknown scenario "${name}" (known: ${known.join(', ')})`);
  if (only.length === 0) throw new UsageError('--only names no scenario');
  return {
    durationSec: number('--duration', values.duration ?? env.BENCH_DURATION, 10, 1, true),
    warmupSec: number('--warmup', values.warmup ?? env.BENCH_WARMUP, 3, 0, true),
    connections: number('--connections', values.connections ?? env.BENCH_CONNECTIONS, 50, 1, true),
    detectors: values['no-detectors'] !== true,
    latencyConnections: number('--latency-connections', values['latency-connections'] ?? env.BENCH_LATENCY_CONNECTIONS, 1, 0, true),
    // Run in the fixed order whatever order --only lists them in.
    only: SCENARIOS.filter((s) => only.includes(s)),
    adversarial: only.includes(ADVERSARIAL),
    streaming: only.includes(STREAMING)
      ? {
          runs: number('--stream-runs', values['stream-runs'] ?? env.BENCH_STREAM_RUNS, 10, 1, true),
          tokenDelayMs: number('--stream-token-ms', values['stream-token-ms'] ?? env.BENCH_STREAM_TOKEN_MS, 4, 0, true),
        }
      : undefined,
    families: values.families,
    out: values.out ? resolve(values.out) : OUT_FILE,
    profileDir: values.profile ? resolve(values.profile) : undefined,
    soakSec: number('--soak', values.soak ?? env.BENCH_SOAK, 0, 0, true),
  };
}

/** A ~1 KB vendor_a chat request: a short system message and ~900 characters of user text. */
function chatRequest(): string {
  const sentence = 'The quarterly report covers revenue, churn and support volume across all regions. ';
  let text = '';
  while (text.length < 900) text += sentence;
  return JSON.stringify({
    model: 'gpt-4o-mini',
    messages: [
      { role: 'system', content: 'You are a concise assistant. Answer in one paragraph.' },
      { role: 'user', content: `Summarise the following notes. ${text.slice(0, 870).trim()}` },
    ],
  });
}

/**
 * The full-inspection request: ~2 KB of user text of a support conversation with an e-mail address (so
 * SANITIZE rewrites it) and words near the policies' keywords; the mock echoes it as a 2 KB answer.
 */
function inspectedRequest(): string {
  const sentences = [
    'Our customer in Berlin reported that the invoice export fails when the report covers more than one quarter. ',
    'They attached the logs and asked us to reply to anna.schmidt@example.com with a workaround. ',
    'The account manager wants a summary of the open tickets, the expected fix date and the impact on billing. ',
    'Please keep the tone friendly and list the steps the customer can take today. ',
  ];
  let text = '';
  for (let i = 0; text.length < 2000; i++) text += sentences[i % sentences.length];
  return JSON.stringify({
    model: 'gpt-4o-mini',
    messages: [
      { role: 'system', content: 'You are a support assistant. Answer in one paragraph.' },
      { role: 'user', content: text.slice(0, 2000).trim() },
    ],
  });
}

/** 20 keyword and 20 regex rules that a support conversation does not trigger (nothing blocks). */
/** `regexScope`: the streaming scenario also runs with the regex rules on requests only (see runStreamingBench). */
function benchPolicies(regexScope: 'both' | 'request' = 'both'): Array<Record<string, unknown>> {
  const keywords = Array.from({ length: 20 }, (_, i) => ({ kind: 'keyword', pattern: `forbidden-project-${i}` }));
  const regexes = Array.from({ length: 20 }, (_, i) => ({ kind: 'regex', pattern: `(?i)\\bcodename[-_ ]?${i}\\d{2}\\b` }));
  return [
    { name: 'bench-keywords', type: 'blocklist', rules: keywords, scope: 'both', action: 'block' },
    { name: 'bench-regexes', type: 'blocklist', rules: regexes, scope: regexScope, action: 'block' },
  ];
}

const BODY = chatRequest();
const INSPECTED_BODY = inspectedRequest();
const HEADERS = { 'content-type': 'application/json', authorization: 'Bearer sk-bench-not-a-real-key', 'x-tenant-id': TENANT };

function spec(url: string, options: Options, body = BODY): LoadSpec {
  return { url, method: 'POST', path: CHAT_PATH, headers: HEADERS, body, connections: options.connections, durationSec: options.durationSec, warmupSec: options.warmupSec };
}

/** One chat request; resolves to true on 200 (and, when `decision` is given, that X-Service-Decision), else a short reason. */
async function tryChat(baseUrl: string, body = BODY, decision?: string): Promise<true | string> {
  const res = await fetch(`${baseUrl}${CHAT_PATH}`, { method: 'POST', headers: HEADERS, body, signal: AbortSignal.timeout(5000) });
  const text = await res.text();
  if (res.status !== 200) return `status ${res.status}: ${text.slice(0, 300)}`;
  const got = res.headers.get('x-service-decision');
  return decision === undefined || got === decision ? true : `X-Service-Decision ${got ?? 'absent'}, expected ${decision}`;
}

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

function log(message: string): void {
  process.stderr.write(`bench: ${message}\n`);
}

/** A fresh mock upstream in its own process. */
async function startMock(started: Child[]): Promise<{ child: Child; url: string }> {
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

async function startBare(started: Child[], upstream: string): Promise<{ child: Child; url: string }> {
  const [port] = await freePorts(1);
  const child = spawnNode('bare-proxy', [BARE_PROXY, '--upstream', upstream, '--port', String(port), '--host', HOST], { cwd: ROOT });
  started.push(child);
  const url = `http://${HOST}:${port}`;
  // The proxy has no routes of its own: /health goes through it to the mock.
  await waitForHttp(`${url}/health`, { child, timeoutMs: 120_000 });
  await waitUntil('a 200 through the bare proxy', () => tryChat(url), { child, timeoutMs: 5000 });
  return { child, url };
}

/**
 * The Palisade data plane as Kubernetes runs it: the control plane (registry + bundle store, with the
 * embedded database) in one process and the gateway alone in another, which is the process measured
 * and compared with the bare proxy. The gateway picks the configuration up by its ETag poll.
 */
/** The OTLP receiver of a traced scenario; returns the OTEL_* variables pointing the gateway at it. */
async function startOtlpSink(started: Child[]): Promise<Record<string, string>> {
  const [port] = (await freePorts(1)) as [number];
  const child = spawnNode('otlp-sink', [OTLP_SINK, '--port', String(port), '--host', HOST], { cwd: ROOT });
  started.push(child);
  const url = `http://${HOST}:${port}`;
  await waitForHttp(`${url}/stats`, { child, timeoutMs: 30_000 });
  return { OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_ENDPOINT: url, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1', OTEL_SERVICE_NAME: 'palisade-gateway-bench' };
}

async function startStack(
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

async function runOne(name: ScenarioName, options: Options): Promise<ScenarioOutcome> {
  const started: Child[] = []; // this scenario's processes, stopped before the next scenario
  let dataDir: string | undefined;
  try {
    const mock = await startMock(started);
    if (name === 'direct') return { name, ...(await measure(name, mock.url, options)) };
    if (name === 'bare') {
      const bare = await startBare(started, mock.url);
      return { name, ...(await measure(name, bare.url, options)) };
    }
    dataDir = mkdtempSync(join(tmpdir(), 'palisade-bench-'));
    const inspect = name === 'inspected' || name === 'inspected-traced';
    const traced = name in TRACED_SCENARIOS;
    // Off is off even when this shell exports OTEL_* variables.
    const tracingEnv = traced ? await startOtlpSink(started) : { OTEL_TRACES_EXPORTER: 'none' };
    const stack = await startStack(started, mock.url, dataDir, inspect, options.profileDir, tracingEnv);
    const pid = stack.child.pid;
    const before = readMemory(pid);
    const measured = await measure(name, stack.url, options, inspect ? INSPECTED_BODY : BODY, true, pid);
    const after = readMemory(pid);
    const heapAfterGc = await readHeap(stack.url).catch((error: unknown) => void log(`${name}: no heap figure: ${String(error)}`));
    if (stack.child.exited() !== undefined) throw childFailure(stack.child, `exited (${stack.child.exited()}) during the run`);
    const soak = name === 'inspected' && options.soakSec > 0 ? await runSoak(spec(stack.url, options, INSPECTED_BODY), Math.max(1, Math.round(measured.measurement.rps / 2)), options.soakSec, log, pid) : undefined;
    return { name, ...measured, memory: { pid, before, after, ...(heapAfterGc ? { heapAfterGc } : {}) }, ...(soak ? { soak } : {}) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log(`${name}: could not run: ${message}`);
    return { name, error: message };
  } finally {
    for (const child of started.reverse()) await child.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

interface Measured {
  measurement: Measurement;
  serial?: Measurement;
  eventLoopMs?: Record<string, number>;
  paced?: { measurement: Measurement; eventLoopMs: Record<string, number> };
  stages?: StageSplit[];
  cpuMsPerRequest?: number;
}

/**
 * The flat-out run, then the one-at-a-time run. For a Palisade gateway (`ownMetrics`), its /metrics is
 * read after the warm-up and after the flat-out run: event-loop delay and inspection time per stage.
 */
async function measure(name: ScenarioName, url: string, options: Options, body = BODY, ownMetrics = false, pid?: number): Promise<Measured> {
  log(`${name}: ${options.warmupSec} s warm-up, then ${options.durationSec} s measured at ${options.connections} connections -> ${url}`);
  let before: Awaited<ReturnType<typeof scrape>> | undefined;
  let cpuBefore: number | undefined;
  const m = await runScenario(
    spec(url, options, body),
    ownMetrics
      ? {
          afterWarmup: async () => {
            before = await scrape(url);
            cpuBefore = readCpuSeconds(pid);
          },
        }
      : {},
  );
  const cpuAfter = readCpuSeconds(pid);
  log(`${name}: ${m.rps.toFixed(0)} req/s, p50 ${m.p50.toFixed(2)} ms, p99 ${m.p99.toFixed(2)} ms, ${m.errors} errors, ${m.non2xx} non-2xx`);
  const out: Measured = { measurement: m };
  // The gateway process's own CPU per call over the measured run: steadier than req/s on a shared machine.
  if (cpuBefore !== undefined && cpuAfter !== undefined && m.requests > 0) out.cpuMsPerRequest = ((cpuAfter - cpuBefore) * 1000) / m.requests;
  if (ownMetrics && before) {
    const after = await scrape(url);
    out.eventLoopMs = after.eventLoopMs;
    const stages = stageSplit(before, after);
    if (stages.length > 0) out.stages = stages;
    log(`${name}: event-loop delay p99 ${after.eventLoopMs['0.99']?.toFixed(2) ?? '-'} ms under load`);
    if (name === 'inspected' && m.rps > 0) out.paced = await measurePaced(name, url, options, body, m.rps / 2);
  }
  if (options.latencyConnections <= 0) return out;
  log(`${name}: ${options.durationSec} s one request at a time on ${options.latencyConnections} connection(s)`);
  const f = await runScenario({ ...spec(url, options, body), connections: options.latencyConnections, warmupSec: 1 });
  log(`${name}: one at a time: ${f.rps.toFixed(0)} req/s, p50 ${f.p50.toFixed(3)} ms, p99 ${f.p99.toFixed(3)} ms, ${f.errors} errors, ${f.non2xx} non-2xx`);
  return { ...out, serial: f };
}

/**
 * The load paced at `rate` req/s (half the flat-out throughput), for the event-loop delay the gateway
 * itself causes: flat out, the machine's run queue (the load generator and the upstream share its
 * cores) delays every timer whatever the gateway does. The metric counts since the previous scrape.
 */
async function measurePaced(name: ScenarioName, url: string, options: Options, body: string, rate: number): Promise<NonNullable<Measured['paced']>> {
  const paced = Math.max(1, Math.round(rate));
  log(`${name}: ${options.durationSec} s paced at ${paced} req/s (half the flat-out throughput)`);
  await scrape(url);
  const measurement = await runPaced(spec(url, options, body), paced);
  const { eventLoopMs } = await scrape(url);
  log(`${name}: paced: ${measurement.rps.toFixed(0)} req/s, p50 ${measurement.p50.toFixed(2)} ms, p99 ${measurement.p99.toFixed(2)} ms; event-loop delay p99 ${eventLoopMs['0.99']?.toFixed(2) ?? '-'} ms`);
  return { measurement, eventLoopMs };
}

/** The detectors' own speed figures, in a process of their own (load generators are stopped by now). */
async function runDetectorBench(): Promise<boolean> {
  if (!existsSync(DETECTOR_BENCH)) {
    log(`${DETECTOR_BENCH} is missing; detector figures skipped`);
    return false;
  }
  return runChild([DETECTOR_BENCH]);
}

async function runChild(args: string[]): Promise<boolean> {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  const code = await new Promise<number | null>((resolveCode) => child.on('close', resolveCode));
  return code === 0;
}

/**
 * The streaming scenario: the mock, the bare proxy and the gateway with the inspection profile (its
 * response scanning masks output PII, incremental by default), streams one at a time. Fails on a leak.
 */
async function runStreamingBench(options: Options, streaming: { runs: number; tokenDelayMs: number }): Promise<boolean> {
  // Twice: with the inspection profile as it is (its 20 regex rules check answers too: the stream holds
  // back only where one of their matches can begin, read with the rules' prefix automaton), and with
  // those regex rules on requests only.
  const results: Record<string, StreamingResult> = {};
  for (const regexScope of ['both', 'request'] as const) {
    const started: Child[] = [];
    const dataDir = mkdtempSync(join(tmpdir(), 'palisade-bench-'));
    try {
      const mock = await startMock(started);
      const bare = await startBare(started, mock.url);
      const stack = await startStack(started, mock.url, dataDir, true, options.profileDir, {}, regexScope);
      log(`streaming (regex rules on ${regexScope === 'both' ? 'requests and answers' : 'requests only'}): ${streaming.runs} streams each through the bare proxy and the gateway`);
      const body = JSON.stringify({ ...(JSON.parse(INSPECTED_BODY) as object), stream: true });
      const result = await runStreamingScenario({ bareUrl: `${bare.url}${CHAT_PATH}`, gatewayUrl: `${stack.url}${CHAT_PATH}`, body, headers: HEADERS, runs: streaming.runs, tokens: 500, tokenDelayMs: streaming.tokenDelayMs });
      process.stdout.write(`\nregex rules on ${regexScope === 'both' ? 'requests and answers' : 'requests only'}: ${renderStreaming(result)}\n`);
      results[regexScope === 'both' ? 'regexOnAnswers' : 'regexOnRequestsOnly'] = result;
    } catch (error) {
      log(`streaming: could not run: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    } finally {
      for (const child of started.reverse()) await child.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const out = options.out.replace(/\.json$/, '') + '-streaming.json';
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`results written to ${out}\n`);
  return Object.values(results).every((r) => r.leaks === 0);
}

/** The adversarial suite, with a collection before each timed call (--expose-gc). */
async function runAdversarialBench(options: Options): Promise<boolean> {
  log('adversarial suite: every CPU detector on worst-case inputs at 64 KiB and 1 MiB');
  return runChild(['--expose-gc', ADVERSARIAL_BENCH, ...(options.families ? ['--families', options.families] : [])]);
}

async function main(): Promise<number> {
  let options: Options | 'help';
  try {
    options = parseOptions(process.argv.slice(2), process.env);
  } catch (error) {
    process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  if (options === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (!existsSync(CLI)) {
    process.stderr.write(`bench: ${CLI} is missing; build first (npm run build)\n`);
    return 1;
  }
  if (options.only.length === 0) {
    const streamingOk = options.streaming ? await runStreamingBench(options, options.streaming) : true;
    const adversarialOk = options.adversarial ? await runAdversarialBench(options) : true;
    return streamingOk && adversarialOk ? 0 : 1;
  }
  installCleanup();
  const startedAt = new Date();
  const outcomes: ScenarioOutcome[] = [];
  try {
    for (const name of options.only) outcomes.push(await runOne(name, options));
  } finally {
    await stopAll();
  }
  const report = buildReport(
    outcomes,
    { connections: options.connections, latencyConnections: options.latencyConnections, durationSec: options.durationSec, warmupSec: options.warmupSec, requestBytes: Buffer.byteLength(BODY), node: process.version, cpus: availableParallelism() },
    { startedAt, finishedAt: new Date() },
  );
  process.stdout.write(`\n${renderReport(report)}\n`);
  mkdirSync(dirname(options.out), { recursive: true });
  writeFileSync(options.out, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`\nresults written to ${options.out}\n`);
  const streamingOk = options.streaming ? await runStreamingBench(options, options.streaming) : true;
  const detectorsOk = options.detectors ? await runDetectorBench() : true;
  const adversarialOk = options.adversarial ? await runAdversarialBench(options) : true;
  return outcomes.some(failed) || !streamingOk || !detectorsOk || !adversarialOk ? 1 : 0;
}

// Explicit exit: keep-alive sockets and timers of the load client must not hold the process open.
main().then(
  (code) => process.exit(code),
  async (error: unknown) => {
    process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    await stopAll().catch(() => {});
    process.exit(1);
  },
);
