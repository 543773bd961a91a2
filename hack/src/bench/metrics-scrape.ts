// Reads the gateway's own figures from its /metrics between load phases: the event-loop delay since
// the previous scrape, and the inspection time per stage (histogram sums and counts, differenced).
export interface Scrape {
  /** palisade_event_loop_delay_seconds by quantile label ("0.5", "0.99", "max"), in ms. */
  eventLoopMs: Record<string, number>;
  /** `${side}:${stage}` → sum (s) and count of palisade_inspection_stage_seconds. */
  stages: Record<string, { sum: number; count: number }>;
}

export interface StageSplit {
  side: string;
  stage: string;
  /** Mean time of the stage per call that ran it, ms. */
  meanMs: number;
  calls: number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)\{([^}]*)\}\s+(\S+)/;

function labels(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) out[m[1]!] = m[2]!;
  return out;
}

/** Parses the Prometheus text format lines this benchmark needs. */
export function parseScrape(text: string): Scrape {
  const scrape: Scrape = { eventLoopMs: {}, stages: {} };
  for (const line of text.split('\n')) {
    const m = LINE.exec(line);
    if (!m) continue;
    const [, name, rawLabels, rawValue] = m;
    const value = Number(rawValue);
    if (!Number.isFinite(value)) continue;
    const l = labels(rawLabels!);
    if (name === 'palisade_event_loop_delay_seconds' && l.quantile) scrape.eventLoopMs[l.quantile] = Math.round(value * 1e6) / 1000;
    else if ((name === 'palisade_inspection_stage_seconds_sum' || name === 'palisade_inspection_stage_seconds_count') && l.side && l.stage) {
      const entry = (scrape.stages[`${l.side}:${l.stage}`] ??= { sum: 0, count: 0 });
      if (name.endsWith('_sum')) entry.sum = value;
      else entry.count = value;
    }
  }
  return scrape;
}

/** The mean time per stage between two scrapes (stages that did not run in between are left out). */
export function stageSplit(before: Scrape, after: Scrape): StageSplit[] {
  const out: StageSplit[] = [];
  for (const [key, a] of Object.entries(after.stages)) {
    const b = before.stages[key] ?? { sum: 0, count: 0 };
    const calls = a.count - b.count;
    if (calls <= 0) continue;
    const [side, stage] = key.split(':') as [string, string];
    out.push({ side, stage, meanMs: Math.round(((a.sum - b.sum) / calls) * 1e6) / 1000, calls });
  }
  return out;
}

export async function scrape(baseUrl: string): Promise<Scrape> {
  const res = await fetch(`${baseUrl}/metrics`, { signal: AbortSignal.timeout(5000) });
  if (res.status !== 200) throw new Error(`GET ${baseUrl}/metrics answered ${res.status}`);
  return parseScrape(await res.text());
}
