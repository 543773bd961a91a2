// Incidents report: blocked requests, jailbreaks, policy blocks and blocked responses by severity and
// over time, the providers and source addresses they came through, and the 20 most serious incidents
// with their trace ids (prompt excerpts with PII values replaced by their masked forms).
import type { Database } from '@palisade/core';
import type { Column, Section, Table } from '../document.js';
import { everyDay, forEachRow, maskedExcerpt, num, periodFilter, rowsOf, type Filter, type Scope } from './rows.js';

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

const withCounts = (r: Record<string, unknown>): Record<string, number> => {
  const counts = Object.fromEntries(KEYS.map((k) => [k, num(r[k])]));
  return { ...counts, total: KEYS.reduce((sum, k) => sum + num(r[k]), 0) };
};

/** The columns of a breakdown: what it is by, then each category's count and their total. */
const countColumns = (key: string, label: string): Column[] => [{ key, label }, ...KEYS.map((k) => ({ key: k, label: CATEGORY_LABELS[k], numeric: true })), { key: 'total', label: 'Total', numeric: true }];

/** A breakdown whose rows name their group in `key`. */
const countsTable = (key: string, label: string, rows: ReadonlyArray<Record<string, unknown>>): Table => ({
  columns: countColumns(key, label),
  rows: rows.map((r) => ({ [key]: String(r[key]), ...withCounts(r) })),
});

/** The sections in the report's order, each read by its own query (one after the other). */
export async function incidentSections(db: Database, scope: Scope): Promise<Section[]> {
  const { where: period, params } = periodFilter(scope, 'ts');
  const filter: Filter = { where: `${period} AND event_type IN (${inList(ALL_TYPES)})`, params };
  return [
    await summarySection(db, filter),
    await bySeveritySection(db, filter),
    await timelineSection(db, filter, scope),
    await topProvidersSection(db, filter),
    await topSourcesSection(db, filter),
    await topIncidentsSection(db, filter),
  ];
}

async function summarySection(db: Database, { where, params }: Filter): Promise<Section> {
  const [totals] = await rowsOf<Record<string, unknown>>(db, `SELECT ${COUNTS}, count(DISTINCT source_ip) AS sources FROM (SELECT event_type, data->>'source_ip' AS source_ip FROM security_events WHERE ${where}) AS e`, params);
  const t = withCounts(totals ?? {});
  return {
    id: 'summary',
    title: 'Summary',
    figures: [
      { key: 'incidents', label: 'Incidents', value: t.total ?? 0 },
      ...KEYS.map((k) => ({ key: k, label: CATEGORY_LABELS[k], value: t[k] ?? 0 })),
      { key: 'source_addresses', label: 'Distinct source addresses', value: num(totals?.sources) },
    ],
  };
}

async function bySeveritySection(db: Database, { where, params }: Filter): Promise<Section> {
  const bySeverity = await rowsOf<Record<string, unknown>>(db, `SELECT severity, ${COUNTS} FROM security_events WHERE ${where} GROUP BY severity ORDER BY min(${SEVERITY_RANK})`, params);
  return { id: 'by_severity', title: 'By severity', table: countsTable('severity', 'Severity', bySeverity), chart: { kind: 'bar', labelKey: 'severity', valueKeys: ['total'] } };
}

/** Read through a cursor: a long period has a row per day. */
async function timelineSection(db: Database, { where, params }: Filter, scope: Scope): Promise<Section> {
  const timeline: Array<{ day: string } & Record<string, string | number>> = [];
  await forEachRow<Record<string, unknown>>(db, `SELECT to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, ${COUNTS} FROM security_events WHERE ${where} GROUP BY 1 ORDER BY 1`, params, (r) =>
    timeline.push({ day: String(r.day), ...withCounts(r) }),
  );
  return {
    id: 'timeline',
    title: 'Timeline (per day)',
    table: { columns: countColumns('day', 'Day (UTC)'), rows: everyDay(timeline, scope, { ...withCounts({}) }) },
    chart: { kind: 'line', labelKey: 'day', valueKeys: ['total', 'jailbreaks'] },
  };
}

async function topProvidersSection(db: Database, { where, params }: Filter): Promise<Section> {
  const topProviders = await rowsOf<Record<string, unknown>>(
    db,
    `SELECT coalesce(max(data->>'provider_name'), '(no provider)') AS provider, ${COUNTS} FROM security_events WHERE ${where} GROUP BY provider_id ORDER BY count(*) DESC, 1 LIMIT 10`,
    params,
  );
  return { id: 'top_providers', title: 'Top providers', table: countsTable('provider', 'Provider', topProviders), chart: { kind: 'bar', labelKey: 'provider', valueKeys: ['total'] } };
}

async function topSourcesSection(db: Database, { where, params }: Filter): Promise<Section> {
  const topSources = await rowsOf<Record<string, unknown>>(
    db,
    `SELECT coalesce(data->>'source_ip', '(unknown)') AS source_ip, ${COUNTS} FROM security_events WHERE ${where} GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 10`,
    params,
  );
  return { id: 'top_sources', title: 'Top source addresses', table: countsTable('source_ip', 'Source address', topSources) };
}

async function topIncidentsSection(db: Database, { where, params }: Filter): Promise<Section> {
  const top = await rowsOf<{ ts: Date | string; trace_id: string; event_type: string; severity: string; data: Record<string, unknown> }>(
    db,
    `SELECT ts, trace_id, event_type, severity, data FROM security_events WHERE ${where}
     ORDER BY ${SEVERITY_RANK}, coalesce((data->>'jailbreak_score')::float8, 0) DESC, ts DESC, id LIMIT 20`,
    params,
  );
  return {
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
  };
}
