// LLM usage report from the usage rollups: requests, tokens and latency overall, by provider, model
// and tenant, and per day. Latency percentiles are estimated from the histogram buckets (the upper
// bound of the bucket the percentile falls in).
import { USAGE_LATENCY_BOUNDS_MS, type Database } from '@palisade/core';
import type { Column, Section } from '../document.js';
import { everyDay, forEachRow, num, periodFilter, rowsOf, type Scope } from './rows.js';

const MEASURES = `sum(requests) AS requests, sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens,
  sum(latency_ms_sum) AS latency_ms_sum, sum(requests) FILTER (WHERE status_class = '5xx') AS errors,
  sum(requests) FILTER (WHERE decision = 'BLOCK') AS blocked`;

const MEASURE_COLUMNS: Column[] = [
  { key: 'requests', label: 'Requests', numeric: true },
  { key: 'input_tokens', label: 'Input tokens', numeric: true },
  { key: 'output_tokens', label: 'Output tokens', numeric: true },
  { key: 'avg_latency_ms', label: 'Avg latency ms', numeric: true },
  { key: 'errors', label: 'Errors (5xx)', numeric: true },
  { key: 'blocked', label: 'Blocked', numeric: true },
];

function measures(r: Record<string, unknown>) {
  const requests = num(r.requests);
  return {
    requests,
    input_tokens: num(r.input_tokens),
    output_tokens: num(r.output_tokens),
    avg_latency_ms: requests > 0 ? Math.round(num(r.latency_ms_sum) / requests) : 0,
    errors: num(r.errors),
    blocked: num(r.blocked),
  };
}

/** The latency below which `share` of the calls fell, by bucket upper bound; null without calls. */
export function percentileFromBuckets(buckets: readonly number[], share: number): string | null {
  const total = buckets.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  let seen = 0;
  for (let i = 0; i < buckets.length; i++) {
    seen += buckets[i]!;
    if (seen >= share * total) return i < USAGE_LATENCY_BOUNDS_MS.length ? `≤ ${USAGE_LATENCY_BOUNDS_MS[i]} ms` : `> ${USAGE_LATENCY_BOUNDS_MS.at(-1)} ms`;
  }
  return null;
}

export async function llmUsageSections(db: Database, scope: Scope): Promise<Section[]> {
  const { where, params } = periodFilter(scope, 'minute');
  const [totals] = await rowsOf<Record<string, unknown>>(db, `SELECT ${MEASURES}, sum(requests) FILTER (WHERE inspected) AS inspected FROM usage_rollups WHERE ${where}`, params);
  const bucketRows = await rowsOf<{ i: unknown; n: unknown }>(db, `SELECT u.i, sum(u.b) AS n FROM usage_rollups, unnest(latency_buckets) WITH ORDINALITY AS u(b, i) WHERE ${where} GROUP BY u.i ORDER BY u.i`, params);
  const buckets = new Array<number>(USAGE_LATENCY_BOUNDS_MS.length + 1).fill(0);
  for (const r of bucketRows) buckets[num(r.i) - 1] = num(r.n);
  const by = async (column: string, label: string) => {
    const rows: Array<Record<string, string | number>> = [];
    await forEachRow<Record<string, unknown>>(db, `SELECT ${column} AS name, ${MEASURES} FROM usage_rollups WHERE ${where} GROUP BY 1 ORDER BY sum(requests) DESC, 1`, params, (r) =>
      rows.push({ name: String(r.name) || '(none)', ...measures(r) }),
    );
    return { columns: [{ key: 'name', label }, ...MEASURE_COLUMNS], rows };
  };
  const perDay: Array<{ day: string } & Record<string, string | number>> = [];
  await forEachRow<Record<string, unknown>>(db, `SELECT to_char(minute AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, ${MEASURES} FROM usage_rollups WHERE ${where} GROUP BY 1 ORDER BY 1`, params, (r) =>
    perDay.push({ day: String(r.day), ...measures(r) }),
  );
  const t = measures(totals ?? {});
  return [
    {
      id: 'summary',
      title: 'Summary',
      figures: [
        { key: 'requests', label: 'Requests', value: t.requests },
        { key: 'input_tokens', label: 'Input tokens', value: t.input_tokens },
        { key: 'output_tokens', label: 'Output tokens', value: t.output_tokens },
        { key: 'avg_latency_ms', label: 'Average latency (ms)', value: t.avg_latency_ms },
        { key: 'p95_latency', label: 'p95 latency (estimate)', value: percentileFromBuckets(buckets, 0.95) ?? '-' },
        { key: 'errors', label: 'Upstream errors (5xx)', value: t.errors },
        { key: 'blocked', label: 'Blocked by the gateway', value: t.blocked },
        { key: 'inspected', label: 'Inspected requests', value: num(totals?.inspected) },
      ],
    },
    { id: 'by_provider', title: 'By provider', table: await by('provider_name', 'Provider'), chart: { kind: 'bar', labelKey: 'name', valueKeys: ['requests'] } },
    { id: 'by_model', title: 'By model', table: await by('model', 'Model'), chart: { kind: 'bar', labelKey: 'name', valueKeys: ['input_tokens', 'output_tokens'] } },
    { id: 'by_tenant', title: 'By tenant', table: await by('tenant_id', 'Tenant') },
    { id: 'per_day', title: 'Per day', table: { columns: [{ key: 'day', label: 'Day (UTC)' }, ...MEASURE_COLUMNS], rows: everyDay(perDay, scope, measures({})) }, chart: { kind: 'line', labelKey: 'day', valueKeys: ['requests'] } },
  ];
}
