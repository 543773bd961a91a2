// The gateway's live JS heap, read through its /internal/heap probe (only there when the gateway runs
// with --expose-gc, as the bench starts it): a forced full collection first, so what is reported is
// what is still referenced, not garbage V8 has not yet collected. RSS alone cannot tell the two apart.
import { runPaced } from './paced.js';
import { readMemory } from './processes.js';
import type { LoadSpec, Measurement } from './scenario.js';

export interface HeapSample {
  /** Seconds since the soak started (0 for a one-off sample). */
  atSec: number;
  heapUsedBytes: number;
  heapTotalBytes: number;
  externalBytes: number;
  rssBytes: number;
}

export interface SoakResult {
  rate: number;
  durationSec: number;
  samples: HeapSample[];
  /** The first sample after the warm-up (a fifth of the soak) and the last one. */
  warmHeapBytes: number;
  endHeapBytes: number;
  /** (end − warm) ÷ warm. */
  growth: number;
  /** Latency over the whole soak. */
  measurement: Measurement;
}

/** A soak whose live heap grows more than this after its warm-up is not flat. */
export const SOAK_FLAT_GROWTH = 0.1;

export async function readHeap(url: string, atSec = 0): Promise<HeapSample> {
  const res = await fetch(`${url}/internal/heap`, { signal: AbortSignal.timeout(30_000) });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET /internal/heap answered ${res.status} (is the gateway running with --expose-gc?): ${text.slice(0, 200)}`);
  const body = JSON.parse(text) as Record<string, number>;
  return {
    atSec,
    heapUsedBytes: body.heap_used_bytes ?? Number.NaN,
    heapTotalBytes: body.heap_total_bytes ?? Number.NaN,
    externalBytes: body.external_bytes ?? Number.NaN,
    rssBytes: body.rss_bytes ?? Number.NaN,
  };
}

/**
 * The load paced at `rate` req/s for `durationSec`, in `samples` slices; after each slice the live
 * heap is read (the forced collection pauses the gateway briefly, between slices, not during them).
 */
export async function runSoak(spec: LoadSpec, rate: number, durationSec: number, log: (m: string) => void, pid?: number): Promise<SoakResult> {
  const slices = Math.max(5, Math.min(30, Math.round(durationSec / 20)));
  const sliceSec = Math.max(1, Math.round(durationSec / slices));
  const samples: HeapSample[] = [await readHeap(spec.url)];
  const measurements: Measurement[] = [];
  const started = Date.now();
  for (let i = 0; i < slices; i++) {
    measurements.push(await runPaced({ ...spec, durationSec: sliceSec, warmupSec: 0 }, rate));
    const sample = await readHeap(spec.url, Math.round((Date.now() - started) / 1000));
    if (pid !== undefined) sample.rssBytes = (readMemory(pid)?.rssKb ?? Number.NaN) * 1024;
    samples.push(sample);
    log(`soak: ${sample.atSec} s, live heap ${mib(sample.heapUsedBytes)}, heap total ${mib(sample.heapTotalBytes)}, RSS ${mib(sample.rssBytes)}`);
  }
  const warm = samples.find((s) => s.atSec >= durationSec / 5) ?? (samples.at(-1) as HeapSample);
  const end = samples.at(-1) as HeapSample;
  const requests = measurements.reduce((n, m) => n + m.requests, 0);
  const weighted = (pick: (m: Measurement) => number) => measurements.reduce((sum, m) => sum + pick(m) * m.requests, 0) / Math.max(1, requests);
  const first = measurements[0] as Measurement;
  const measurement: Measurement = {
    ...first,
    requests,
    rps: requests / ((Date.now() - started) / 1000),
    p50: weighted((m) => m.p50),
    // The worst slice: a percentile of percentiles is not a percentile, and the soak is about memory.
    p99: Math.max(...measurements.map((m) => m.p99)),
    mean: weighted((m) => m.mean),
    errors: measurements.reduce((n, m) => n + m.errors, 0),
    non2xx: measurements.reduce((n, m) => n + m.non2xx, 0),
  };
  return { rate, durationSec, samples, warmHeapBytes: warm.heapUsedBytes, endHeapBytes: end.heapUsedBytes, growth: (end.heapUsedBytes - warm.heapUsedBytes) / warm.heapUsedBytes, measurement };
}

export function mib(bytes: number | undefined): string {
  return bytes === undefined || !Number.isFinite(bytes) ? '-' : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
