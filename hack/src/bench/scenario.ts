// One load run with autocannon: a warm-up whose numbers are dropped, then the measured run.
//
// Latency percentiles come from our own microsecond histogram fed by autocannon's `response`
// events, not from autocannon's result: autocannon records latencies as whole milliseconds, too
// coarse for a target such as "adds at most 1 ms at p50".
import autocannon from 'autocannon';
import { createHistogram } from 'node:perf_hooks';

export interface LoadSpec {
  /** Base URL of the target, e.g. http://127.0.0.1:8070. */
  url: string;
  method: 'POST' | 'GET';
  path: string;
  headers: Record<string, string>;
  body?: string;
  connections: number;
  durationSec: number;
  warmupSec: number;
}

export interface Measurement {
  /** Completed responses per second over the measured run. */
  rps: number;
  /** Latency percentiles of 2xx responses, in milliseconds (microsecond resolution). */
  p50: number;
  p99: number;
  mean: number;
  /** Completed responses in the measured run. */
  requests: number;
  /** Connection errors, timeouts included. */
  errors: number;
  timeouts: number;
  /** Responses whose status was not 2xx. */
  non2xx: number;
  /** Count per status code, e.g. { "200": 41230 }. */
  statusCodes: Record<string, number>;
  durationSec: number;
}

/** Runs the warm-up then the measured run against the spec; never both at once. */
export async function runScenario(spec: LoadSpec, hooks: { afterWarmup?: () => Promise<void> } = {}): Promise<Measurement> {
  if (spec.warmupSec > 0) await load(spec, spec.warmupSec, false);
  await hooks.afterWarmup?.();
  return load(spec, spec.durationSec, true);
}

async function load(spec: LoadSpec, durationSec: number, measure: boolean): Promise<Measurement> {
  const histogram = createHistogram(); // values in microseconds
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: new URL(spec.path, spec.url).href,
        method: spec.method,
        headers: spec.headers,
        body: spec.body,
        connections: spec.connections,
        pipelining: 1,
        duration: durationSec,
        timeout: 10,
      },
      (error: unknown, done: autocannon.Result) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(done)),
    );
    if (measure) {
      instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
        if (statusCode >= 200 && statusCode < 300) histogram.record(Math.max(1, Math.round(responseTimeMs * 1000)));
      });
    }
  });
  return toMeasurement(result, histogram);
}

/** p50, p99 and mean in ms (microsecond resolution) of a histogram of microseconds; NaN when empty. */
export function latencyFigures(histogram: ReturnType<typeof createHistogram>): Pick<Measurement, 'p50' | 'p99' | 'mean'> {
  const ms = (us: number) => roundTo(us / 1000, 3);
  const empty = histogram.count === 0;
  return {
    p50: empty ? Number.NaN : ms(histogram.percentile(50)),
    p99: empty ? Number.NaN : ms(histogram.percentile(99)),
    mean: empty ? Number.NaN : ms(histogram.mean),
  };
}

function toMeasurement(result: autocannon.Result, histogram: ReturnType<typeof createHistogram>): Measurement {
  const statusCodes: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stat?.count ?? 0;
  return {
    rps: result.duration > 0 ? roundTo(result.requests.total / result.duration, 1) : 0,
    ...latencyFigures(histogram),
    requests: result.requests.total,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodes,
    durationSec: result.duration,
  };
}

export function roundTo(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
