// The security-event dashboard's figures: headline counters, breakdowns by type and severity, the
// providers with the most PII incidents and a row per day, each computed in SQL.
import type { Database } from '../database.js';
import { eventFilter } from './event-filter.js';

/** The window and tenants of a dashboard; `to` is exclusive. */
export interface EventStatsQuery {
  tenant_ids?: string[];
  from: string;
  to: string;
  /** How many providers the PII ranking keeps (default 10). */
  topProviders?: number;
}

/** Counters of the dashboard's headline figures, over a whole window or one day. */
export interface EventCounters {
  events: number;
  /** Distinct trace ids with at least one event. */
  requests: number;
  blocks: number;
  sanitizations: number;
  monitor_alerts: number;
  pii_detections: number;
}

export interface EventStats {
  totals: EventCounters;
  by_type: Record<string, number>;
  by_severity: Record<string, number>;
  top_pii_providers: Array<{ provider_id: string | null; provider_name: string | null; pii_incidents: number }>;
  /** One row per UTC day that has events, oldest first; `day` is YYYY-MM-DD. */
  per_day: Array<EventCounters & { day: string }>;
}

/**
 * The event types behind each headline figure of the dashboard. Blocks and sanitizations count
 * requests (distinct traces), since one request leaves several events; a block also counts when only
 * its cause was recorded with decision BLOCK (a jailbreak's JAILBREAK_DETECTED).
 */
export const DASHBOARD_EVENT_GROUPS = {
  blocks: ['REQUEST_BLOCKED', 'CUSTOM_POLICY_BLOCK', 'RESPONSE_BLOCKED'],
  sanitizations: ['REQUEST_SANITIZED', 'RESPONSE_REDACTED'],
  monitor_alerts: ['MONITOR_ALERT', 'RESPONSE_MONITOR_ALERT'],
  pii_detections: ['PII_DETECTED'],
} as const;

/** The dashboard's aggregations over a window, computed in SQL (five queries at once). */
export async function eventStats(db: Database, query: EventStatsQuery): Promise<EventStats> {
  const params: unknown[] = [];
  const where = eventFilter({ ...(query.tenant_ids ? { tenant_ids: query.tenant_ids } : {}), from: query.from, to: query.to }, params);
  const groups = Object.entries(DASHBOARD_EVENT_GROUPS);
  // Each headline figure is a FILTERed count over the same rows: one scan for all of them.
  const counters = [
    'count(*) AS events',
    'count(DISTINCT trace_id) AS requests',
    ...groups.map(([name], i) => {
      const ofGroup = `event_type = ANY($${params.length + i + 1})`;
      if (name === 'blocks') return `count(DISTINCT trace_id) FILTER (WHERE ${ofGroup} OR data->>'decision' = 'BLOCK') AS ${name}`;
      if (name === 'sanitizations') return `count(DISTINCT trace_id) FILTER (WHERE ${ofGroup}) AS ${name}`;
      return `count(*) FILTER (WHERE ${ofGroup}) AS ${name}`;
    }),
  ].join(', ');
  const groupParams = [...params, ...groups.map(([, types]) => [...types])];
  type CounterRow = Record<keyof EventCounters, string | number>;
  const toCounters = (row: CounterRow | undefined): EventCounters => ({
    events: Number(row?.events ?? 0),
    requests: Number(row?.requests ?? 0),
    blocks: Number(row?.blocks ?? 0),
    sanitizations: Number(row?.sanitizations ?? 0),
    monitor_alerts: Number(row?.monitor_alerts ?? 0),
    pii_detections: Number(row?.pii_detections ?? 0),
  });
  const day = `to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
  const top = query.topProviders ?? 10;
  const [totals, byType, bySeverity, providers, perDay] = await Promise.all([
    db.query<CounterRow>(`SELECT ${counters} FROM security_events ${where}`, groupParams),
    db.query<{ key: string; n: string | number }>(`SELECT event_type AS key, count(*) AS n FROM security_events ${where} GROUP BY event_type`, params),
    db.query<{ key: string; n: string | number }>(`SELECT upper(severity) AS key, count(*) AS n FROM security_events ${where} GROUP BY upper(severity)`, params),
    db.query<{ provider_id: string | null; provider_name: string | null; n: string | number }>(
      `SELECT provider_id, max(data->>'provider_name') AS provider_name, count(*) AS n FROM security_events
       ${where ? `${where} AND` : 'WHERE'} event_type = 'PII_DETECTED'
       GROUP BY provider_id ORDER BY n DESC, provider_id LIMIT $${params.length + 1}`,
      [...params, top],
    ),
    db.query<CounterRow & { day: string }>(`SELECT ${day} AS day, ${counters} FROM security_events ${where} GROUP BY 1 ORDER BY 1`, groupParams),
  ]);
  const tally = (rows: Array<{ key: string; n: string | number }>) => Object.fromEntries(rows.map((r) => [r.key, Number(r.n)]));
  return {
    totals: toCounters(totals.rows[0]),
    by_type: tally(byType.rows),
    by_severity: tally(bySeverity.rows),
    top_pii_providers: providers.rows.map((r) => ({ provider_id: r.provider_id, provider_name: r.provider_name, pii_incidents: Number(r.n) })),
    per_day: perDay.rows.map((r) => ({ day: r.day, ...toCounters(r) })),
  };
}
