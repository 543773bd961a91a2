// Incidents report: blocked requests, jailbreaks, policy blocks and blocked responses by severity and
// over time, the providers and source addresses they came through, and the 20 most serious incidents
// with their trace ids (prompt excerpts with PII values replaced by their masked forms).
import type { Database } from '@palisade/core';
import type { Section } from '../document.js';
import { everyDay, forEachRow, maskedExcerpt, num, periodFilter, rowsOf, type Scope } from './rows.js';

/** Incident categories → the event types they count. */
export const INCIDENT_CATEGORIES = {
  blocks: ['REQUEST_BLOCKED'],
  jailbreaks: ['JAILBREAK_DETECTED'],
  policy_blocks: ['CUSTOM_POLICY_BLOCK', 'POLICY_VIOLATION'],
  response_blocks: ['RESPONSE_BLOCKED'],
} as const;

const CATEGORY_LABELS: Record<keyof typeof INCIDENT_CATEGORIES, string> = { blocks: 'Blocked requests', jailbreaks: 'Jailbreaks', policy_blocks: 'Policy blocks', response_blocks: 'Blocked responses' };
const KEYS = Object.keys(INCIDENT_CATEGORIES) as Array<keyof typeof INCIDENT_CATEGORIES>;
const ALL_TYPES = KEYS.flatMap((k) => [...INCIDENT_CATEGORIES[k]]);
const inList = (types: readonly string[]) => types.map((t) => `'${t}'`).join(', ');
const COUNTS = KEYS.map((k) => `count(*) FILTER (WHERE event_type IN (${inList(INCIDENT_CATEGORIES[k])})) AS ${k}`).join(', ');
const SEVERITY_RANK = `CASE severity WHEN 'CRITICAL' THEN 0 WHEN 'HIGH' THEN 1 WHEN 'MEDIUM' THEN 2 WHEN 'LOW' THEN 3 ELSE 4 END`;

const categoryColumns = KEYS.map((k) => ({ key: k, label: CATEGORY_LABELS[k], numeric: true }));
const withCounts = (r: Record<string, unknown>): Record<string, number> => {
  const counts = Object.fromEntries(KEYS.map((k) => [k, num(r[k])]));
  return { ...counts, total: KEYS.reduce((sum, k) => sum + num(r[k]), 0) };
};

export async function incidentSections(db: Database, scope: Scope): Promise<Section[]> {
  const { where: period, params } = periodFilter(scope, 'ts');
  const where = `${period} AND event_type IN (${inList(ALL_TYPES)})`;
  const [totals] = await rowsOf<Record<string, unknown>>(db, `SELECT ${COUNTS}, count(DISTINCT source_ip) AS sources FROM (SELECT event_type, data->>'source_ip' AS source_ip FROM security_events WHERE ${where}) AS e`, params);
  const bySeverity = await rowsOf<Record<string, unknown>>(db, `SELECT severity, ${COUNTS} FROM security_events WHERE ${where} GROUP BY severity ORDER BY min(${SEVERITY_RANK})`, params);
  const timeline: Array<{ day: string } & Record<string, string | number>> = [];
  await forEachRow<Record<string, unknown>>(db, `SELECT to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, ${COUNTS} FROM security_events WHERE ${where} GROUP BY 1 ORDER BY 1`, params, (r) =>
    timeline.push({ day: String(r.day), ...withCounts(r) }),
  );
  const topProviders = await rowsOf<Record<string, unknown>>(
    db,
    `SELECT coalesce(max(data->>'provider_name'), '(no provider)') AS provider, ${COUNTS} FROM security_events WHERE ${where} GROUP BY provider_id ORDER BY count(*) DESC, 1 LIMIT 10`,
    params,
  );
  const topSources = await rowsOf<Record<string, unknown>>(
    db,
    `SELECT coalesce(data->>'source_ip', '(unknown)') AS source_ip, ${COUNTS} FROM security_events WHERE ${where} GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 10`,
    params,
  );
  const top = await rowsOf<{ ts: Date | string; trace_id: string; event_type: string; severity: string; data: Record<string, unknown> }>(
    db,
    `SELECT ts, trace_id, event_type, severity, data FROM security_events WHERE ${where}
     ORDER BY ${SEVERITY_RANK}, coalesce((data->>'jailbreak_score')::float8, 0) DESC, ts DESC, id LIMIT 20`,
    params,
  );
  const t = withCounts(totals ?? {});
  return [
    {
      id: 'summary',
      title: 'Summary',
      figures: [
        { key: 'incidents', label: 'Incidents', value: t.total ?? 0 },
        ...KEYS.map((k) => ({ key: k, label: CATEGORY_LABELS[k], value: t[k] ?? 0 })),
        { key: 'source_addresses', label: 'Distinct source addresses', value: num(totals?.sources) },
      ],
    },
    {
      id: 'by_severity',
      title: 'By severity',
      table: { columns: [{ key: 'severity', label: 'Severity' }, ...categoryColumns, { key: 'total', label: 'Total', numeric: true }], rows: bySeverity.map((r) => ({ severity: String(r.severity), ...withCounts(r) })) },
      chart: { kind: 'bar', labelKey: 'severity', valueKeys: ['total'] },
    },
    {
      id: 'timeline',
      title: 'Timeline (per day)',
      table: { columns: [{ key: 'day', label: 'Day (UTC)' }, ...categoryColumns, { key: 'total', label: 'Total', numeric: true }], rows: everyDay(timeline, scope, { ...withCounts({}) }) },
      chart: { kind: 'line', labelKey: 'day', valueKeys: ['total', 'jailbreaks'] },
    },
    {
      id: 'top_providers',
      title: 'Top providers',
      table: { columns: [{ key: 'provider', label: 'Provider' }, ...categoryColumns, { key: 'total', label: 'Total', numeric: true }], rows: topProviders.map((r) => ({ provider: String(r.provider), ...withCounts(r) })) },
      chart: { kind: 'bar', labelKey: 'provider', valueKeys: ['total'] },
    },
    {
      id: 'top_sources',
      title: 'Top source addresses',
      table: { columns: [{ key: 'source_ip', label: 'Source address' }, ...categoryColumns, { key: 'total', label: 'Total', numeric: true }], rows: topSources.map((r) => ({ source_ip: String(r.source_ip), ...withCounts(r) })) },
    },
    {
      id: 'top_incidents',
      title: 'Top 20 incidents',
      note: 'Most severe first, then by jailbreak score and time. Prompts show masked PII only.',
      table: {
        columns: [
          { key: 'time', label: 'Time (UTC)', weight: 1.25 },
          { key: 'severity', label: 'Severity', weight: 0.8 },
          { key: 'event_type', label: 'Type', weight: 1.7 },
          { key: 'trace_id', label: 'Trace id', weight: 1.1 },
          { key: 'provider', label: 'Provider', weight: 1.2 },
          { key: 'source_ip', label: 'Source', weight: 1 },
          { key: 'score', label: 'Score', numeric: true },
          { key: 'prompt', label: 'Prompt (masked)', detail: true },
        ],
        rows: top.map((r) => ({
          time: new Date(r.ts).toISOString().slice(0, 16).replace('T', ' '),
          severity: r.severity,
          event_type: r.event_type,
          trace_id: r.trace_id,
          provider: (r.data.provider_name as string | null) ?? '',
          source_ip: (r.data.source_ip as string | null) ?? '',
          score: typeof r.data.jailbreak_score === 'number' ? Math.round(r.data.jailbreak_score * 100) / 100 : null,
          prompt: maskedExcerpt(r.data.user_prompt as string | null, (r.data.pii_entities as Array<{ value?: string; masked?: string }>) ?? []),
        })),
      },
    },
  ];
}
