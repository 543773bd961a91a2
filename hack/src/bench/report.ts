// Pure part of the benchmark: ratios to the bare proxy, the gateway's targets, the printed table
// and the JSON document. No I/O here, so it is tested without running any load.
import type { StageSplit } from './metrics-scrape.js';
import { mib as mibOfBytes, SOAK_FLAT_GROWTH, type HeapSample, type SoakResult } from './heap.js';
import type { Memory } from './processes.js';
import type { Measurement } from './scenario.js';

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

/** Traced ÷ untraced throughput of each pair that both ran without errors. */
export function tracingCosts(outcomes: readonly ScenarioOutcome[]): TracingCost[] {
  const costs: TracingCost[] = [];
  for (const [traced, plain] of Object.entries(TRACED_SCENARIOS) as Array<[keyof typeof TRACED_SCENARIOS, ScenarioName]>) {
    const onOutcome = outcomes.find((o) => o.name === traced);
    const offOutcome = outcomes.find((o) => o.name === plain);
    const on = onOutcome?.measurement;
    const off = offOutcome?.measurement;
    if (!on || !off || off.rps <= 0 || problems(on).length > 0 || problems(off).length > 0) continue;
    const throughputRatio = round(on.rps / off.rps, 3);
    const cpu =
      onOutcome?.cpuMsPerRequest !== undefined && offOutcome?.cpuMsPerRequest !== undefined
        ? { cpuMsPerRequest: { off: round(offOutcome.cpuMsPerRequest, 4), on: round(onOutcome.cpuMsPerRequest, 4) } }
        : {};
    costs.push({ scenario: traced, throughputRatio, ...cpu, target: `>= ${TRACING_MIN_THROUGHPUT_RATIO}`, met: throughputRatio >= TRACING_MIN_THROUGHPUT_RATIO });
  }
  return costs;
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

/** The human-readable summary printed at the end of a run. */
export function renderReport(report: Report): string {
  const { config } = report;
  const lines: string[] = [];
  lines.push(`palisade bench: ${config.connections} connections, ${config.warmupSec} s warm-up + ${config.durationSec} s measured per scenario, ${config.requestBytes} B request, node ${config.node}, ${config.cpus} CPUs`);
  lines.push('');
  const header = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'req/s ÷ bare', '+p50 ms', '+p99 ms', 'errors', 'non-2xx'];
  const rows: string[][] = [];
  const notes: string[] = [];
  for (const name of SCENARIOS) {
    const s = report.scenarios[name];
    if (!s) continue;
    const m = s.measurement;
    if (!m) {
      rows.push([LABELS[name], 'failed', '-', '-', '-', '-', '-', '-', '-']);
      notes.push(`${name}: could not run: ${firstLine(s.error ?? 'unknown error')}`);
      continue;
    }
    const v = s.vsBare;
    rows.push([
      LABELS[name],
      fmt(m.rps, 0),
      fmt(m.p50, 2),
      fmt(m.p99, 2),
      name === 'bare' ? '1.00' : v ? fmt(v.throughputRatio, 2) : '-',
      name === 'bare' ? '0' : v ? signed(v.addedP50Ms) : '-',
      name === 'bare' ? '0' : v ? signed(v.addedP99Ms) : '-',
      String(m.errors),
      String(m.non2xx),
    ]);
    for (const problem of s.problems) notes.push(`${name}: ${problem}`);
  }
  lines.push(...table(header, rows));

  if (config.latencyConnections > 0) {
    const fixedRows: string[][] = [];
    const bareSerial = report.scenarios.bare?.serial;
    for (const name of SCENARIOS) {
      const f = report.scenarios[name]?.serial;
      if (!f) continue;
      const v = bareSerial && name !== 'bare' ? compare(bareSerial, f) : undefined;
      fixedRows.push([
        LABELS[name],
        fmt(f.rps, 0),
        fmt(f.p50, 2),
        fmt(f.p99, 2),
        name === 'bare' ? '0' : v ? signed(v.addedP50Ms) : '-',
        name === 'bare' ? '0' : v ? signed(v.addedP99Ms) : '-',
        String(f.errors),
        String(f.non2xx),
      ]);
      for (const problem of problems(f)) notes.push(`${name}, one at a time: ${problem}`);
    }
    if (fixedRows.length > 0) {
      lines.push('');
      lines.push(`latency one request at a time (${config.latencyConnections} connection${config.latencyConnections === 1 ? '' : 's'}, closed loop: processing time without queueing):`);
      lines.push(...table(['scenario', 'req/s', 'p50 ms', 'p99 ms', '+p50 ms', '+p99 ms', 'errors', 'non-2xx'], fixedRows));
    }
  }

  for (const name of GATEWAY_SCENARIOS) {
    const gateway = report[name];
    if (!gateway) continue;
    lines.push('');
    lines.push(`${LABELS[name]} vs bare proxy:`);
    if (gateway.checks) {
      lines.push(`  (throughput flat out; added latency ${gateway.serialComparison ? 'one request at a time' : 'flat out'})`);
      for (const check of gateway.checks) {
        const value = check.name === 'throughput ratio' ? fmt(check.value, 2) : check.name.startsWith('event-loop') ? `${fmt(check.value, 2)} ms` : `${signed(check.value)} ms`;
        lines.push(`  ${check.name.padEnd(25)} ${value.padStart(10)}   target ${check.target.padEnd(8)}  ${check.met ? 'met' : 'MISSED'}`);
      }
      if (report.scenarios[name]?.problems.length || report.scenarios.bare?.problems.length) {
        lines.push('  (a measurement had errors or non-2xx responses: the comparison is not reliable)');
      }
    } else {
      lines.push(`  not compared: ${report.scenarios.bare ? 'a scenario did not run' : 'bare proxy scenario not selected'}`);
    }
    const memory = gateway.memory;
    if (memory) {
      lines.push(`  gateway process RSS (pid ${memory.pid}, the gateway alone): before ${mib(memory.before?.rssKb)}, after ${mib(memory.after?.rssKb)}, peak ${mib(memory.after?.peakKb ?? memory.before?.peakKb)}`);
      const heap = memory.heapAfterGc;
      if (heap) lines.push(`  live JS heap after a forced GC at the end: ${mibOfBytes(heap.heapUsedBytes)} (heap reserved ${mibOfBytes(heap.heapTotalBytes)}, external ${mibOfBytes(heap.externalBytes)}, RSS then ${mibOfBytes(heap.rssBytes)})`);
    }
    if (gateway.soak) {
      const soak = gateway.soak;
      const flat = Math.abs(soak.growth) <= SOAK_FLAT_GROWTH;
      lines.push(
        `  soak: ${soak.durationSec} s paced at ${soak.rate} req/s (${fmt(soak.measurement.rps, 0)} served, p50 ${fmt(soak.measurement.p50, 2)} ms, worst slice p99 ${fmt(soak.measurement.p99, 2)} ms, ${soak.measurement.errors + soak.measurement.non2xx} failed)`,
        `  soak live heap after warm-up ${mibOfBytes(soak.warmHeapBytes)} -> end ${mibOfBytes(soak.endHeapBytes)} (${signed(soak.growth * 100)} %): ${flat ? 'flat' : 'GROWING'} (target within ±${SOAK_FLAT_GROWTH * 100} %)`,
        `  soak samples (s: live heap / RSS): ${soak.samples.map((s) => `${s.atSec}: ${(s.heapUsedBytes / 1048576).toFixed(0)}/${(s.rssBytes / 1048576).toFixed(0)}`).join(', ')} MiB`,
      );
    }
    if (gateway.eventLoopMs && name !== 'inspected') {
      lines.push(`  event-loop delay under load: p50 ${fmt(gateway.eventLoopMs['0.5'] ?? Number.NaN, 2)} ms, p99 ${fmt(gateway.eventLoopMs['0.99'] ?? Number.NaN, 2)} ms, max ${fmt(gateway.eventLoopMs.max ?? Number.NaN, 2)} ms`);
    }
    if (gateway.paced) {
      const { measurement: m, eventLoopMs: loop } = gateway.paced;
      lines.push(
        `  half load (paced at ${fmt(m.rps, 0)} req/s): latency p50 ${fmt(m.p50, 2)} ms, p99 ${fmt(m.p99, 2)} ms; event-loop delay p50 ${fmt(loop['0.5'] ?? Number.NaN, 2)} ms, p99 ${fmt(loop['0.99'] ?? Number.NaN, 2)} ms, max ${fmt(loop.max ?? Number.NaN, 2)} ms`,
      );
    }
    if (gateway.stages && gateway.stages.length > 0) {
      lines.push('  inspection time per stage (mean per call, flat out; detectors run in parallel, so they overlap within total):');
      const order = ['turn_wait', 'normalize', 'threat', 'pii', 'content_policy', 'content_safety', 'decision', 'total'];
      const sorted = [...gateway.stages].sort((a, b) => a.side.localeCompare(b.side) || order.indexOf(a.stage) - order.indexOf(b.stage));
      lines.push(...table(['side', 'stage', 'mean ms', 'calls'], sorted.map((st) => [st.side, st.stage, fmt(st.meanMs, 3), String(st.calls)])).map((l) => `    ${l}`));
    }
  }
  if (report.tracing) {
    lines.push('');
    lines.push('tracing on (OTLP/HTTP to a local receiver, parentbased_traceidratio 0.1) vs off:');
    for (const cost of report.tracing) {
      lines.push(`  ${LABELS[cost.scenario].padEnd(34)} req/s ÷ off ${fmt(cost.throughputRatio, 3).padStart(6)}   target ${cost.target}  ${cost.met ? 'met' : 'MISSED'}`);
      const cpu = cost.cpuMsPerRequest;
      if (cpu) lines.push(`  ${''.padEnd(34)} gateway CPU per call ${fmt(cpu.off, 3)} ms off, ${fmt(cpu.on, 3)} ms on (${signed(((cpu.on - cpu.off) / cpu.off) * 100)} %)`);
    }
  }
  if (notes.length > 0) {
    lines.push('');
    lines.push('problems:');
    for (const note of notes) lines.push(`  ${note}`);
  }
  return lines.join('\n');
}

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)];
}

function fmt(value: number, digits: number): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '-';
}

function signed(value: number): string {
  if (!Number.isFinite(value)) return '-';
  return `${value >= 0 ? '+' : ''}${value.toFixed(2)}`;
}

function mib(kb: number | undefined): string {
  return kb === undefined ? 'n/a' : `${(kb / 1024).toFixed(1)} MiB`;
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? text;
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
