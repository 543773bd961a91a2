// Pure part of the benchmark: ratios to the bare proxy, the gateway's targets and the JSON document
// (report-render.ts prints it). No I/O here, so it is tested without running any load.
import type { StageSplit } from './metrics-scrape.js';
import type { HeapSample, SoakResult } from './heap.js';
import type { Memory } from './processes.js';
import type { Measurement } from './scenario.js';
import type { TracingPair, TracingPairRound } from './tracing-pair.js';

export const SCENARIOS = ['direct', 'bare', 'gateway', 'gateway-traced', 'inspected', 'inspected-traced'] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

export const LABELS: Record<ScenarioName, string> = {
  direct: 'direct (mock upstream)',
  bare: 'bare proxy',
  gateway: 'gateway',
  'gateway-traced': 'gateway, traces at 10 %',
  inspected: 'gateway, full inspection',
  'inspected-traced': 'full inspection, traces at 10 %',
};

/** Each traced scenario (OpenTelemetry on, 10 % sampled, to a local OTLP receiver) and its untraced twin. */
export const TRACED_SCENARIOS = { 'gateway-traced': 'gateway', 'inspected-traced': 'inspected' } as const satisfies Partial<Record<ScenarioName, ScenarioName>>;
/** Tracing on may cost at most 5 % of the throughput (traced req/s ÷ untraced req/s). */
export const TRACING_MIN_THROUGHPUT_RATIO = 0.95;

export interface TracingCost {
  scenario: keyof typeof TRACED_SCENARIOS;
  /** traced req/s ÷ untraced req/s. */
  throughputRatio: number;
  /** The gateway process's CPU per call, ms, off and on (when read). */
  cpuMsPerRequest?: { off: number; on: number };
  /** Each alternating round's req/s, when the pair was measured side by side. */
  rounds?: TracingPairRound[];
  target: string;
  met: boolean;
}

/** The gateway scenarios, each judged against the bare proxy with its own targets. */
export const GATEWAY_SCENARIOS = ['gateway', 'inspected'] as const;
export type GatewayScenario = (typeof GATEWAY_SCENARIOS)[number];

export interface ScenarioOutcome {
  name: ScenarioName;
  /** Present when the load ran (even with errors): as fast as the target answers. */
  measurement?: Measurement;
  /** The same request sent one at a time (few connections, closed loop): latency without queueing. */
  serial?: Measurement;
  /** Why the scenario could not run. */
  error?: string;
  /** Of the process under test (gateway: the gateway process alone); heapAfterGc: its live JS heap at the end. */
  memory?: { pid: number; before?: Memory; after?: Memory; heapAfterGc?: HeapSample };
  /** The paced soak (--soak) after the inspected scenario. */
  soak?: SoakResult;
  /** The gateway's event-loop delay over the flat-out run, ms by quantile ("0.5", "0.99", "max"). */
  eventLoopMs?: Record<string, number>;
  /**
   * The same load paced at half the flat-out throughput: the event-loop delay the gateway's own work
   * causes, without the run queue of a saturated machine (load generator included) on top.
   */
  paced?: { measurement: Measurement; eventLoopMs: Record<string, number> };
  /** Mean inspection time per stage over the flat-out run. */
  stages?: StageSplit[];
  /** CPU of the gateway process (all its threads) per call over the flat-out run, ms. */
  cpuMsPerRequest?: number;
  /** A traced scenario alternated with its untraced twin (tracing-pair.ts): the figures its cost is judged by. */
  tracingPair?: TracingPair;
}

/** How `other` compares with the bare proxy. */
export interface Comparison {
  /** other req/s ÷ bare req/s. */
  throughputRatio: number;
  /** Latency added over the bare proxy, in ms (negative when faster). */
  addedP50Ms: number;
  addedP99Ms: number;
}

export interface Targets {
  minThroughputRatio: number;
  maxAddedP50Ms: number;
  maxAddedP99Ms: number;
  /** Event-loop delay p99 of the gateway under load, when judged. */
  maxEventLoopP99Ms?: number;
}

export const DEFAULT_TARGETS: Targets = { minThroughputRatio: 0.8, maxAddedP50Ms: 1, maxAddedP99Ms: 3 };
/** Full CPU inspection (all PII types, 40 policy rules, threat, normalization, response scan). */
export const INSPECTION_TARGETS: Targets = { minThroughputRatio: 0.5, maxAddedP50Ms: 5, maxAddedP99Ms: 20, maxEventLoopP99Ms: 10 };

export interface TargetCheck {
  name: 'throughput ratio' | 'added p50' | 'added p99' | 'event-loop p99' | 'event-loop p99, half load';
  value: number;
  target: string;
  met: boolean;
}

export function compare(bare: Measurement, other: Measurement): Comparison {
  return {
    throughputRatio: bare.rps > 0 ? round(other.rps / bare.rps, 3) : Number.NaN,
    addedP50Ms: round(other.p50 - bare.p50, 3),
    addedP99Ms: round(other.p99 - bare.p99, 3),
  };
}

/** A value that could not be computed (NaN) never meets its target. */
export function checkTargets(comparison: Comparison, targets: Targets = DEFAULT_TARGETS): TargetCheck[] {
  return [
    { name: 'throughput ratio', value: comparison.throughputRatio, target: `>= ${targets.minThroughputRatio}`, met: comparison.throughputRatio >= targets.minThroughputRatio },
    { name: 'added p50', value: comparison.addedP50Ms, target: `<= ${targets.maxAddedP50Ms} ms`, met: comparison.addedP50Ms <= targets.maxAddedP50Ms },
    { name: 'added p99', value: comparison.addedP99Ms, target: `<= ${targets.maxAddedP99Ms} ms`, met: comparison.addedP99Ms <= targets.maxAddedP99Ms },
  ];
}

/** A measurement is clean when every request got a 2xx answer. */
export function problems(m: Measurement): string[] {
  const out: string[] = [];
  if (m.errors > 0) out.push(`${m.errors} connection errors${m.timeouts > 0 ? ` (${m.timeouts} timeouts)` : ''}`);
  if (m.non2xx > 0) {
    const codes = Object.entries(m.statusCodes)
      .filter(([code]) => !code.startsWith('2'))
      .map(([code, n]) => `${n}x${code}`)
      .join(', ');
    out.push(`${m.non2xx} non-2xx responses${codes ? ` (${codes})` : ''}`);
  }
  if (m.requests === 0) out.push('no response at all');
  return out;
}

/** A scenario failed when it could not run, or ran without a single 2xx answer. */
export function failed(outcome: ScenarioOutcome): boolean {
  if (outcome.error !== undefined || !outcome.measurement) return true;
  return outcome.measurement.requests - outcome.measurement.non2xx <= 0;
}

export interface RunConfig {
  connections: number;
  /** Connections of the latency phase (one request at a time each); 0 = not run. */
  latencyConnections: number;
  durationSec: number;
  warmupSec: number;
  requestBytes: number;
}

export interface Report {
  startedAt: string;
  finishedAt: string;
  config: RunConfig & { node: string; cpus: number };
  targets: Targets;
  scenarios: Partial<Record<ScenarioName, ScenarioOutcome & { problems: string[]; vsBare?: Comparison }>>;
  gateway?: GatewayVerdict;
  inspected?: GatewayVerdict;
  /** Throughput with tracing on relative to the same scenario without (when both ran). */
  tracing?: TracingCost[];
}

export interface GatewayVerdict {
  targets: Targets;
  comparison?: Comparison | undefined;
  /** Latency added over the bare proxy in the latency phase (when it ran). */
  serialComparison?: Comparison;
  checks?: TargetCheck[] | undefined;
  memory?: ScenarioOutcome['memory'];
  soak?: ScenarioOutcome['soak'];
  eventLoopMs?: Record<string, number>;
  paced?: ScenarioOutcome['paced'];
  stages?: StageSplit[];
}

export function buildReport(
  outcomes: ScenarioOutcome[],
  config: Report['config'],
  times: { startedAt: Date; finishedAt: Date },
  targets: Targets = DEFAULT_TARGETS,
): Report {
  const bare = outcomes.find((o) => o.name === 'bare')?.measurement;
  const report: Report = { startedAt: times.startedAt.toISOString(), finishedAt: times.finishedAt.toISOString(), config, targets, scenarios: {} };
  for (const outcome of outcomes) {
    const m = outcome.measurement;
    report.scenarios[outcome.name] = {
      ...outcome,
      problems: m ? problems(m) : [],
      ...(m && bare && outcome.name !== 'bare' ? { vsBare: compare(bare, m) } : {}),
    };
  }
  const bareSerial = outcomes.find((o) => o.name === 'bare')?.serial;
  for (const name of GATEWAY_SCENARIOS) {
    const outcome = outcomes.find((o) => o.name === name);
    if (outcome) report[name] = verdict(outcome, bare, bareSerial, name === 'inspected' ? INSPECTION_TARGETS : targets);
  }
  const tracing = tracingCosts(outcomes);
  if (tracing.length > 0) report.tracing = tracing;
  return report;
}

/**
 * Traced ÷ untraced throughput of each traced scenario: from its alternating rounds with an untraced
 * twin when it has them (tracing-pair.ts), else from the two scenarios' own runs; not judged when
 * either side had errors.
 */
export function tracingCosts(outcomes: readonly ScenarioOutcome[]): TracingCost[] {
  const costs: TracingCost[] = [];
  for (const [traced, plain] of Object.entries(TRACED_SCENARIOS) as Array<[keyof typeof TRACED_SCENARIOS, ScenarioName]>) {
    const onOutcome = outcomes.find((o) => o.name === traced);
    const pair = onOutcome?.tracingPair;
    if (pair) {
      if (pair.failures > 0 || pair.offRps <= 0) continue;
      costs.push(tracingCost(traced, pair.onRps / pair.offRps, pair.cpuMsPerRequest, pair.rounds));
      continue;
    }
    const offOutcome = outcomes.find((o) => o.name === plain);
    const on = onOutcome?.measurement;
    const off = offOutcome?.measurement;
    if (!on || !off || off.rps <= 0 || problems(on).length > 0 || problems(off).length > 0) continue;
    const cpu =
      onOutcome?.cpuMsPerRequest !== undefined && offOutcome?.cpuMsPerRequest !== undefined ? { off: offOutcome.cpuMsPerRequest, on: onOutcome.cpuMsPerRequest } : undefined;
    costs.push(tracingCost(traced, on.rps / off.rps, cpu));
  }
  return costs;
}

function tracingCost(scenario: keyof typeof TRACED_SCENARIOS, ratio: number, cpu: { off: number; on: number } | undefined, rounds?: TracingPairRound[]): TracingCost {
  const throughputRatio = round(ratio, 3);
  return {
    scenario,
    throughputRatio,
    ...(cpu ? { cpuMsPerRequest: { off: round(cpu.off, 4), on: round(cpu.on, 4) } } : {}),
    ...(rounds ? { rounds: rounds.map((r) => ({ offRps: round(r.offRps, 1), onRps: round(r.onRps, 1) })) } : {}),
    target: `>= ${TRACING_MIN_THROUGHPUT_RATIO}`,
    met: throughputRatio >= TRACING_MIN_THROUGHPUT_RATIO,
  };
}

function verdict(outcome: ScenarioOutcome, bare: Measurement | undefined, bareSerial: Measurement | undefined, targets: Targets): GatewayVerdict {
  const comparison = outcome.measurement && bare ? compare(bare, outcome.measurement) : undefined;
  const serialComparison = outcome.serial && bareSerial ? compare(bareSerial, outcome.serial) : undefined;
  // Throughput is judged flat out; added latency one request at a time when that phase ran: at
  // saturation the latency of 50 connections is 50 / throughput (Little's law) and only repeats the
  // ratio, and a rate-limited load generator sends in bursts that measure its own queueing.
  const latency = serialComparison ?? comparison;
  let checks = comparison && latency ? checkTargets({ throughputRatio: comparison.throughputRatio, addedP50Ms: latency.addedP50Ms, addedP99Ms: latency.addedP99Ms }, targets) : undefined;
  if (checks && targets.maxEventLoopP99Ms !== undefined) {
    const p99 = outcome.eventLoopMs?.['0.99'] ?? Number.NaN;
    const target = `<= ${targets.maxEventLoopP99Ms} ms`;
    checks = [...checks, { name: 'event-loop p99', value: p99, target, met: p99 <= targets.maxEventLoopP99Ms }];
    if (outcome.paced) {
      const paced = outcome.paced.eventLoopMs['0.99'] ?? Number.NaN;
      checks.push({ name: 'event-loop p99, half load', value: paced, target, met: paced <= targets.maxEventLoopP99Ms });
    }
  }
  return {
    targets,
    comparison,
    ...(serialComparison ? { serialComparison } : {}),
    checks,
    memory: outcome.memory,
    ...(outcome.soak ? { soak: outcome.soak } : {}),
    ...(outcome.eventLoopMs ? { eventLoopMs: outcome.eventLoopMs } : {}),
    ...(outcome.paced ? { paced: outcome.paced } : {}),
    ...(outcome.stages ? { stages: outcome.stages } : {}),
  };
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
