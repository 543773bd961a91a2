// The human-readable summary of a bench run (report.ts builds the figures): the scenario table, the
// one-at-a-time table, each gateway scenario against the bare proxy, and the cost of tracing.
import { mib as mibOfBytes, SOAK_FLAT_GROWTH } from './heap.js';
import { compare, GATEWAY_SCENARIOS, LABELS, problems, SCENARIOS, type GatewayScenario, type GatewayVerdict, type Report } from './report.js';

/** The summary printed at the end of a run. */
export function renderReport(report: Report): string {
  const { config } = report;
  const notes: string[] = [];
  const lines = [
    `palisade bench: ${config.connections} connections, ${config.warmupSec} s warm-up + ${config.durationSec} s measured per scenario, ${config.requestBytes} B request, node ${config.node}, ${config.cpus} CPUs`,
    '',
    ...scenarioTable(report, notes),
    ...serialTable(report, notes),
  ];
  for (const name of GATEWAY_SCENARIOS) {
    const gateway = report[name];
    if (gateway) lines.push('', ...gatewaySection(report, name, gateway));
  }
  if (report.tracing) {
    lines.push('', 'tracing on (OTLP/HTTP to a local receiver, parentbased_traceidratio 0.1) vs off:');
    for (const cost of report.tracing) {
      lines.push(`  ${LABELS[cost.scenario].padEnd(34)} req/s ÷ off ${fmt(cost.throughputRatio, 3).padStart(6)}   target ${cost.target}  ${cost.met ? 'met' : 'MISSED'}`);
      const cpu = cost.cpuMsPerRequest;
      if (cpu) lines.push(`  ${''.padEnd(34)} gateway CPU per call ${fmt(cpu.off, 3)} ms off, ${fmt(cpu.on, 3)} ms on (${signed(((cpu.on - cpu.off) / cpu.off) * 100)} %)`);
      if (cost.rounds) lines.push(`  ${''.padEnd(34)} ${cost.rounds.length} rounds side by side, on ÷ off: ${cost.rounds.map((r) => fmt(r.onRps / r.offRps, 3)).join(', ')}`);
    }
  }
  if (notes.length > 0) lines.push('', 'problems:', ...notes.map((note) => `  ${note}`));
  return lines.join('\n');
}

/** Flat-out figures of every scenario and their ratios to the bare proxy; problems go to `notes`. */
function scenarioTable(report: Report, notes: string[]): string[] {
  const header = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'req/s ÷ bare', '+p50 ms', '+p99 ms', 'errors', 'non-2xx'];
  const rows: string[][] = [];
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
  return table(header, rows);
}

/** The one-request-at-a-time figures (latency without queueing), when that phase ran. */
function serialTable(report: Report, notes: string[]): string[] {
  const { latencyConnections } = report.config;
  if (latencyConnections <= 0) return [];
  const rows: string[][] = [];
  const bareSerial = report.scenarios.bare?.serial;
  for (const name of SCENARIOS) {
    const f = report.scenarios[name]?.serial;
    if (!f) continue;
    const v = bareSerial && name !== 'bare' ? compare(bareSerial, f) : undefined;
    rows.push([
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
  if (rows.length === 0) return [];
  return [
    '',
    `latency one request at a time (${latencyConnections} connection${latencyConnections === 1 ? '' : 's'}, closed loop: processing time without queueing):`,
    ...table(['scenario', 'req/s', 'p50 ms', 'p99 ms', '+p50 ms', '+p99 ms', 'errors', 'non-2xx'], rows),
  ];
}

/** One gateway scenario against the bare proxy: its targets, memory, soak, event loop, half load and stages. */
function gatewaySection(report: Report, name: GatewayScenario, gateway: GatewayVerdict): string[] {
  const lines = [`${LABELS[name]} vs bare proxy:`];
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
  return lines;
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
