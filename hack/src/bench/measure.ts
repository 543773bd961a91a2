// One scenario run and its measurements: flat out, paced at half that (the inspected scenario), one
// request at a time, with the gateway's own CPU, memory, heap and stage split where it is a Palisade gateway.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readHeap, runSoak } from './heap.js';
import { scrape, stageSplit, type StageSplit } from './metrics-scrape.js';
import type { Options } from './options.js';
import { runPaced } from './paced.js';
import { childFailure, readCpuSeconds, readMemory, type Child } from './processes.js';
import { TRACED_SCENARIOS, type ScenarioName, type ScenarioOutcome } from './report.js';
import { BODY, INSPECTED_BODY, spec } from './requests.js';
import { runScenario, type Measurement } from './scenario.js';
import { log, startBare, startMock, startOtlpSink, startStack } from './stack.js';
import { measureTracingPair } from './tracing-pair.js';

export async function runOne(name: ScenarioName, options: Options): Promise<ScenarioOutcome> {
  const started: Child[] = []; // this scenario's processes, stopped before the next scenario
  let dataDir: string | undefined;
  let twinDataDir: string | undefined;
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
    // A traced scenario's cost is judged against an untraced twin on the same upstream (tracing-pair.ts).
    if (traced) twinDataDir = mkdtempSync(join(tmpdir(), 'palisade-bench-'));
    // Profiled too with --profile: the pair's cost is read from the difference of the two profiles.
    const twin = twinDataDir ? await startStack(started, mock.url, twinDataDir, inspect, options.profileDir, { OTEL_TRACES_EXPORTER: 'none' }) : undefined;
    const pid = stack.child.pid;
    const before = readMemory(pid);
    const measured = await measure(name, stack.url, options, inspect ? INSPECTED_BODY : BODY, true, pid);
    const after = readMemory(pid);
    const heapAfterGc = await readHeap(stack.url).catch((error: unknown) => void log(`${name}: no heap figure: ${String(error)}`));
    if (stack.child.exited() !== undefined) throw childFailure(stack.child, `exited (${stack.child.exited()}) during the run`);
    const tracingPair = twin ? await measureTracingPair({ url: twin.url, pid: twin.child.pid }, { url: stack.url, pid }, options, inspect ? INSPECTED_BODY : BODY) : undefined;
    if (tracingPair) log(`${name}: paired with its untraced twin over ${tracingPair.rounds.length} alternating rounds: ${tracingPair.onRps.toFixed(0)} ÷ ${tracingPair.offRps.toFixed(0)} req/s`);
    const soak = name === 'inspected' && options.soakSec > 0 ? await runSoak(spec(stack.url, options, INSPECTED_BODY), Math.max(1, Math.round(measured.measurement.rps / 2)), options.soakSec, log, pid) : undefined;
    return { name, ...measured, memory: { pid, before, after, ...(heapAfterGc ? { heapAfterGc } : {}) }, ...(soak ? { soak } : {}), ...(tracingPair ? { tracingPair } : {}) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log(`${name}: could not run: ${message}`);
    return { name, error: message };
  } finally {
    for (const child of started.reverse()) await child.stop();
    for (const dir of [dataDir, twinDataDir]) if (dir) rmSync(dir, { recursive: true, force: true });
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
  log(`${name}: ${options.warmupSec} s warm-up, then ${options.durationSec} s paced at ${paced} req/s (half the flat-out throughput)`);
  // A warm-up at the paced rate first, as every scenario has one: the phase follows the flat-out run
  // directly, and the gateway's recovery from it (the collection of what the overload left, its
  // queues) is not half load. Measured from the start, that recovery was the whole tail in some runs.
  if (options.warmupSec > 0) await runPaced({ ...spec(url, options, body), durationSec: options.warmupSec }, paced);
  await scrape(url);
  const measurement = await runPaced(spec(url, options, body), paced);
  const { eventLoopMs } = await scrape(url);
  log(`${name}: paced: ${measurement.rps.toFixed(0)} req/s, p50 ${measurement.p50.toFixed(2)} ms, p99 ${measurement.p99.toFixed(2)} ms; event-loop delay p99 ${eventLoopMs['0.99']?.toFixed(2) ?? '-'} ms`);
  return { measurement, eventLoopMs };
}

