// Ratios to the bare proxy, target checks and the summary, from fixed measurements.
import t from 'tap';
import { buildReport, checkTargets, compare, failed, problems, tracingCosts, type ScenarioOutcome } from './report.js';
import { renderReport } from './report-render.js';
import type { Measurement } from './scenario.js';

function m(rps: number, p50: number, p99: number, extra: Partial<Measurement> = {}): Measurement {
  return { rps, p50, p99, mean: p50, requests: rps * 10, errors: 0, timeouts: 0, non2xx: 0, statusCodes: { '200': rps * 10 }, durationSec: 10, ...extra };
}

const config = { connections: 50, latencyConnections: 0, durationSec: 10, warmupSec: 3, requestBytes: 1024, node: 'v20', cpus: 2 };
const times = { startedAt: new Date(0), finishedAt: new Date(1000) };

t.test('compare: throughput ratio and added latency over the bare proxy', async (t) => {
  t.same(compare(m(10_000, 4, 9), m(8_500, 4.6, 11.5)), { throughputRatio: 0.85, addedP50Ms: 0.6, addedP99Ms: 2.5 });
  t.same(compare(m(10_000, 4, 9), m(12_000, 3.5, 8)), { throughputRatio: 1.2, addedP50Ms: -0.5, addedP99Ms: -1 }, 'faster than bare: negative added latency');
  t.ok(Number.isNaN(compare(m(0, 4, 9), m(100, 4, 9)).throughputRatio), 'no ratio against a bare proxy with no throughput');
});

t.test('targets: ratio >= 0.80, added p50 <= 1 ms, added p99 <= 3 ms; bounds included', async (t) => {
  const met = checkTargets({ throughputRatio: 0.8, addedP50Ms: 1, addedP99Ms: 3 });
  t.same(met.map((c) => c.met), [true, true, true]);
  const missed = checkTargets({ throughputRatio: 0.79, addedP50Ms: 1.01, addedP99Ms: 3.2 });
  t.same(missed.map((c) => [c.name, c.met]), [['throughput ratio', false], ['added p50', false], ['added p99', false]]);
  const nan = checkTargets({ throughputRatio: Number.NaN, addedP50Ms: Number.NaN, addedP99Ms: Number.NaN });
  t.same(nan.map((c) => c.met), [false, false, false], 'what cannot be computed is not met');
  t.same(checkTargets({ throughputRatio: 0.9, addedP50Ms: 0.5, addedP99Ms: 2 }, { minThroughputRatio: 0.95, maxAddedP50Ms: 1, maxAddedP99Ms: 3 })[0]?.met, false, 'targets can be passed in');
});

t.test('problems and failures', async (t) => {
  t.same(problems(m(100, 1, 2)), []);
  t.same(problems(m(100, 1, 2, { errors: 3, timeouts: 1, non2xx: 2, statusCodes: { '200': 998, '502': 2 } })), ['3 connection errors (1 timeouts)', '2 non-2xx responses (2x502)']);
  t.equal(failed({ name: 'bare', error: 'spawn failed' }), true);
  t.equal(failed({ name: 'bare', measurement: m(100, 1, 2, { requests: 50, non2xx: 50 }) }), true, 'not a single 2xx answer');
  t.equal(failed({ name: 'bare', measurement: m(100, 1, 2, { non2xx: 5 }) }), false, 'ran, with problems');
});

t.test('report: gateway compared with bare, table and targets printed', async (t) => {
  const outcomes: ScenarioOutcome[] = [
    { name: 'direct', measurement: m(20_000, 2, 5) },
    { name: 'bare', measurement: m(10_000, 4, 9) },
    { name: 'gateway', measurement: m(7_000, 5.5, 11), memory: { pid: 42, before: { rssKb: 102_400, peakKb: 102_400 }, after: { rssKb: 153_600, peakKb: 204_800 } } },
  ];
  const report = buildReport(outcomes, config, times);
  t.same(report.gateway?.comparison, { throughputRatio: 0.7, addedP50Ms: 1.5, addedP99Ms: 2 });
  t.same(report.gateway?.checks?.map((c) => c.met), [false, false, true]);
  t.same(report.scenarios.direct?.vsBare, { throughputRatio: 2, addedP50Ms: -2, addedP99Ms: -4 });
  t.equal(report.scenarios.bare?.vsBare, undefined);
  const text = renderReport(report);
  t.match(text, /gateway\s+7000\s+5\.50\s+11\.00\s+0\.70\s+\+1\.50\s+\+2\.00/);
  t.match(text, /throughput ratio\s+0\.70\s+target >= 0\.8\s+MISSED/);
  t.match(text, /added p99\s+\+2\.00 ms\s+target <= 3 ms\s+met/);
  t.match(text, /before 100\.0 MiB, after 150\.0 MiB, peak 200\.0 MiB/);
  t.notMatch(text, /problems:/);
});

t.test('report: a scenario that could not run, and no comparison without the bare proxy', async (t) => {
  const report = buildReport([{ name: 'direct', measurement: m(20_000, 2, 5) }, { name: 'gateway', error: 'registry answered 404\nmore lines' }], config, times);
  t.equal(report.gateway?.comparison, undefined);
  const text = renderReport(report);
  t.match(text, /gateway\s+failed/);
  t.match(text, /gateway: could not run: registry answered 404$/m);
  t.match(text, /not compared: bare proxy scenario not selected/);
  t.equal(JSON.parse(JSON.stringify(report)).scenarios.gateway.error, 'registry answered 404\nmore lines', 'the JSON keeps the whole error');
});

t.test('latency phase: latency targets judged one request at a time, second table printed', async (t) => {
  const outcomes: ScenarioOutcome[] = [
    { name: 'bare', measurement: m(10_000, 5, 9), serial: m(2000, 0.45, 0.9) },
    { name: 'gateway', measurement: m(8_500, 5.9, 12), serial: m(1600, 0.6, 1.3) },
  ];
  const report = buildReport(outcomes, { ...config, latencyConnections: 1 }, times);
  t.same(report.gateway?.serialComparison, { throughputRatio: 0.8, addedP50Ms: 0.15, addedP99Ms: 0.4 });
  t.same(report.gateway?.checks?.map((c) => [c.name, c.value, c.met]), [['throughput ratio', 0.85, true], ['added p50', 0.15, true], ['added p99', 0.4, true]]);
  const text = renderReport(report);
  t.match(text, /latency one request at a time \(1 connection, closed loop/);
  t.match(text, /gateway\s+1600\s+0\.60\s+1\.30\s+\+0\.15\s+\+0\.40/);
  t.match(text, /added latency one request at a time/);
});

t.test('report: full inspection judged with its own targets, event-loop delay and the stage split', async (t) => {
  const report = buildReport(
    [
      { name: 'bare', measurement: m(10_000, 4, 9) },
      {
        name: 'inspected',
        measurement: m(6_000, 7, 20),
        eventLoopMs: { '0.5': 1.2, '0.99': 12.5, max: 40 },
        stages: [
          { side: 'request', stage: 'total', meanMs: 2.5, calls: 100 },
          { side: 'request', stage: 'pii', meanMs: 0.2, calls: 100 },
        ],
      },
    ],
    config,
    times,
  );
  t.same(report.inspected?.checks?.map((c) => [c.name, c.met]), [
    ['throughput ratio', true],
    ['added p50', true],
    ['added p99', true],
    ['event-loop p99', false],
  ]);
  const text = renderReport(report);
  t.match(text, /gateway, full inspection vs bare proxy/);
  t.match(text, /event-loop p99\s+12\.50 ms\s+target <= 10 ms\s+MISSED/);
  t.match(text, /request\s+pii\s+0\.200\s+100\n\s+request\s+total\s+2\.500\s+100/, 'stages in pipeline order');
});

t.test('report: the paced half-load run is judged for event-loop delay beside the flat-out one', async (t) => {
  const report = buildReport(
    [
      { name: 'bare', measurement: m(10_000, 4, 9) },
      { name: 'inspected', measurement: m(800, 50, 100), eventLoopMs: { '0.5': 1, '0.99': 15, max: 30 }, paced: { measurement: m(400, 4.2, 24), eventLoopMs: { '0.5': 0.1, '0.99': 5, max: 8 } } },
    ],
    config,
    times,
  );
  t.same(report.inspected?.checks?.slice(-2).map((c) => [c.name, c.value, c.met]), [
    ['event-loop p99', 15, false],
    ['event-loop p99, half load', 5, true],
  ]);
  const text = renderReport(report);
  t.match(text, /event-loop p99, half load\s+5\.00 ms\s+target <= 10 ms\s+met/);
  t.match(text, /half load \(paced at 400 req\/s\): latency p50 4\.20 ms, p99 24\.00 ms; event-loop delay p50 0\.10 ms, p99 5\.00 ms, max 8\.00 ms/);
});

t.test('tracing cost: traced ÷ untraced throughput, at least 0.95', async (t) => {
  const outcomes: ScenarioOutcome[] = [
    { name: 'gateway', measurement: m(8_000, 5, 10), cpuMsPerRequest: 0.2 },
    { name: 'gateway-traced', measurement: m(7_760, 5.1, 10.4), cpuMsPerRequest: 0.206 },
    { name: 'inspected', measurement: m(2_000, 20, 40) },
    { name: 'inspected-traced', measurement: m(1_800, 22, 45) },
  ];
  t.same(tracingCosts(outcomes), [
    { scenario: 'gateway-traced', throughputRatio: 0.97, cpuMsPerRequest: { off: 0.2, on: 0.206 }, target: '>= 0.95', met: true },
    { scenario: 'inspected-traced', throughputRatio: 0.9, target: '>= 0.95', met: false },
  ]);
  const text = renderReport(buildReport(outcomes, config, times));
  t.match(text, /tracing on .* vs off:\n {2}gateway, traces at 10 % +req\/s ÷ off +0\.970 +target >= 0\.95 +met\n +gateway CPU per call 0\.200 ms off, 0\.206 ms on \(\+3\.00 %\)\n {2}full inspection, traces at 10 % +req\/s ÷ off +0\.900 +target >= 0\.95 +MISSED/);
  t.same(tracingCosts([outcomes[0]!, { name: 'gateway-traced', measurement: m(7_000, 5, 10, { errors: 2 }) }]), [], 'a run with errors is not compared');
  t.equal(buildReport([outcomes[0]!], config, times).tracing, undefined, 'nothing without the traced twin');
});

t.test('tracing cost measured side by side: the totals of the alternating rounds decide, not the separate runs', async (t) => {
  const rounds = [
    { offRps: 5_000, onRps: 4_900 },
    { offRps: 4_000, onRps: 3_880 },
  ];
  const outcomes: ScenarioOutcome[] = [
    { name: 'gateway', measurement: m(9_000, 5, 10) },
    { name: 'gateway-traced', measurement: m(6_000, 5, 10), tracingPair: { rounds, offRps: 4_500, onRps: 4_390, cpuMsPerRequest: { off: 0.2, on: 0.21 }, failures: 0 } },
  ];
  t.same(tracingCosts(outcomes), [
    { scenario: 'gateway-traced', throughputRatio: 0.976, cpuMsPerRequest: { off: 0.2, on: 0.21 }, rounds, target: '>= 0.95', met: true },
  ]);
  t.match(renderReport(buildReport(outcomes, config, times)), /2 rounds side by side, on ÷ off: 0\.980, 0\.970/);
  const failed: ScenarioOutcome = { name: 'gateway-traced', measurement: m(6_000, 5, 10), tracingPair: { rounds, offRps: 4_500, onRps: 4_390, failures: 1 } };
  t.same(tracingCosts([outcomes[0]!, failed]), [], 'a pair with a failed round is not judged');
});
