// The bench's command line: which scenarios run, for how long, at what load, and where the figures go.
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { SCENARIOS, type ScenarioName } from './report.js';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const ADVERSARIAL = 'adversarial';
const STREAMING = 'streaming';
const OUT_FILE = join(ROOT, '.bench', 'last-run.json');

export const USAGE = `usage: npm run bench -- [options]

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

export interface Options {
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

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv): Options | 'help' {
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
