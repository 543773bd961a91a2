// PII/DLP report (spec: summary statistics, breakdown by PII type, breakdown by action, top 10
// providers by PII incidents, per-day detail). A PII incident is a PII_DETECTED event, as on the
// dashboard; its entities are counted by type from the stored event's pii_entities.
import type { Database } from '@palisade/core';
import type { Section } from '../document.js';
import { everyDay, forEachRow, num, periodFilter, rowsOf, type Filter, type Scope } from './rows.js';

const BLOCKED = `(upper(coalesce(data->>'decision', '')) = 'BLOCK' OR upper(coalesce(data->>'action', '')) = 'BLOCK')`;
const MASKED = `(upper(coalesce(data->>'decision', '')) = 'SANITIZE' OR upper(coalesce(data->>'action', '')) IN ('MASK', 'REDACT', 'SANITIZE'))`;
const MONITORED = `(upper(coalesce(data->>'decision', '')) = 'MONITOR_ONLY' OR upper(coalesce(data->>'action', '')) LIKE 'WOULD_%')`;

/** The sections in the spec's order, each read by its own query (one after the other). */
export async function piiDlpSections(db: Database, scope: Scope): Promise<Section[]> {
  const { where: period, params } = periodFilter(scope, 'ts');
  const filter: Filter = { where: `${period} AND event_type = 'PII_DETECTED'`, params };
  return [
    await summarySection(db, filter),
    await byTypeSection(db, filter),
    await byActionSection(db, filter),
    await topProvidersSection(db, filter),
    await perDaySection(db, filter, scope),
  ];
}

async function summarySection(db: Database, { where, params }: Filter): Promise<Section> {
  const [summary] = await rowsOf<Record<string, unknown>>(
    db,
    `SELECT count(*) AS incidents, coalesce(sum(jsonb_array_length(data->'pii_entities')), 0) AS entities,
       count(DISTINCT trace_id) AS requests, count(DISTINCT provider_id) AS providers,
       count(*) FILTER (WHERE ${BLOCKED}) AS blocked, count(*) FILTER (WHERE ${MASKED}) AS masked,
       count(*) FILTER (WHERE ${MONITORED}) AS monitored
     FROM security_events WHERE ${where}`,
    params,
  );
  const s = summary ?? {};
  return {
    id: 'summary',
    title: 'Summary',
    figures: [
      { key: 'pii_incidents', label: 'PII incidents', value: num(s.incidents) },
      { key: 'pii_entities', label: 'PII values found', value: num(s.entities) },
      { key: 'requests_affected', label: 'Requests affected', value: num(s.requests) },
      { key: 'providers_affected', label: 'Providers affected', value: num(s.providers) },
      { key: 'blocked', label: 'Blocked', value: num(s.blocked) },
      { key: 'masked', label: 'Masked or redacted', value: num(s.masked) },
      { key: 'monitored', label: 'Monitored only', value: num(s.monitored) },
    ],
  };
}

async function byTypeSection(db: Database, { where, params }: Filter): Promise<Section> {
  const byType = await rowsOf<{ type: string; entities: unknown; incidents: unknown }>(
    db,
    `SELECT e->>'type' AS type, count(*) AS entities, count(DISTINCT id) AS incidents
     FROM security_events, jsonb_array_elements(data->'pii_entities') AS e WHERE ${where}
     GROUP BY 1 ORDER BY 2 DESC, 1`,
    params,
  );
  return {
    id: 'by_pii_type',
    title: 'By PII type',
    table: {
      columns: [{ key: 'type', label: 'PII type' }, { key: 'entities', label: 'Values found', numeric: true }, { key: 'incidents', label: 'Incidents', numeric: true }],
      rows: byType.map((r) => ({ type: r.type, entities: num(r.entities), incidents: num(r.incidents) })),
    },
    chart: { kind: 'bar', labelKey: 'type', valueKeys: ['entities'] },
  };
}

async function byActionSection(db: Database, { where, params }: Filter): Promise<Section> {
  const byAction = await rowsOf<{ action: string; incidents: unknown }>(
    db,
    `SELECT upper(coalesce(data->>'action', data->>'decision', 'UNKNOWN')) AS action, count(*) AS incidents
     FROM security_events WHERE ${where} GROUP BY 1 ORDER BY 2 DESC, 1`,
    params,
  );
  return {
    id: 'by_action',
    title: 'By action',
    table: { columns: [{ key: 'action', label: 'Action' }, { key: 'incidents', label: 'Incidents', numeric: true }], rows: byAction.map((r) => ({ action: r.action, incidents: num(r.incidents) })) },
    chart: { kind: 'bar', labelKey: 'action', valueKeys: ['incidents'] },
  };
}

async function topProvidersSection(db: Database, { where, params }: Filter): Promise<Section> {
  const topProviders = await rowsOf<{ provider: string; incidents: unknown; entities: unknown }>(
    db,
    `SELECT coalesce(max(data->>'provider_name'), '(no provider)') AS provider, count(*) AS incidents,
       coalesce(sum(jsonb_array_length(data->'pii_entities')), 0) AS entities
     FROM security_events WHERE ${where} GROUP BY provider_id ORDER BY 2 DESC, 1 LIMIT 10`,
    params,
  );
  return {
    id: 'top_providers',
    title: 'Top 10 providers by PII incidents',
    table: {
      columns: [{ key: 'provider', label: 'Provider' }, { key: 'incidents', label: 'Incidents', numeric: true }, { key: 'entities', label: 'Values found', numeric: true }],
      rows: topProviders.map((r) => ({ provider: r.provider, incidents: num(r.incidents), entities: num(r.entities) })),
    },
    chart: { kind: 'bar', labelKey: 'provider', valueKeys: ['incidents'] },
  };
}

/** Read through a cursor: a long period has a row per day. */
async function perDaySection(db: Database, { where, params }: Filter, scope: Scope): Promise<Section> {
  const perDay: Array<{ day: string } & Record<string, string | number>> = [];
  await forEachRow<Record<string, unknown>>(
    db,
    `SELECT to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*) AS incidents,
       coalesce(sum(jsonb_array_length(data->'pii_entities')), 0) AS entities, count(*) FILTER (WHERE ${BLOCKED}) AS blocked,
       count(*) FILTER (WHERE ${MASKED}) AS masked
     FROM security_events WHERE ${where} GROUP BY 1 ORDER BY 1`,
    params,
    (r) => perDay.push({ day: String(r.day), incidents: num(r.incidents), entities: num(r.entities), blocked: num(r.blocked), masked: num(r.masked) }),
  );
  return {
    id: 'per_day',
    title: 'Per day',
    table: {
      columns: [
        { key: 'day', label: 'Day (UTC)' },
        { key: 'incidents', label: 'Incidents', numeric: true },
        { key: 'entities', label: 'Values found', numeric: true },
        { key: 'blocked', label: 'Blocked', numeric: true },
        { key: 'masked', label: 'Masked', numeric: true },
      ],
      rows: everyDay(perDay, scope, { incidents: 0, entities: 0, blocked: 0, masked: 0 }),
    },
    chart: { kind: 'line', labelKey: 'day', valueKeys: ['incidents', 'blocked'] },
  };
}
