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
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runOne } from './measure.js';
import { parseOptions, ROOT, USAGE, type Options } from './options.js';
import { installCleanup, stopAll, type Child } from './processes.js';
import { buildReport, failed, type ScenarioOutcome } from './report.js';
import { renderReport } from './report-render.js';
import { BODY, CHAT_PATH, HEADERS, INSPECTED_BODY } from './requests.js';
import { CLI, log, startBare, startMock, startStack } from './stack.js';
import { renderStreaming, runStreamingScenario, type StreamingResult } from './streaming.js';

const DETECTOR_BENCH = join(ROOT, 'detectors', 'dist', 'bench', 'main.js');
const ADVERSARIAL_BENCH = fileURLToPath(new URL('./adversarial-main.js', import.meta.url));

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

/** The adversarial suite (--expose-gc: it collects the heap once per detector and family). */
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
