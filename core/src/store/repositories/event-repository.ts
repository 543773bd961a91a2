import type { Database } from '../database.js';

/** The columns a security event is filtered by; the full record (core/model) is kept in `data`. */
export interface EventRow {
  id: string;
  trace_id: string;
  timestamp: string;
  event_type: string;
  severity: string;
  tenant_id: string;
  provider_id?: string | null;
  profile_id?: string | null;
}

export interface EventQuery {
  trace_id?: string;
  /** Any of these tenants; undefined = all (super-admin). */
  tenant_ids?: string[];
  event_types?: string[];
  severities?: string[];
  provider_id?: string;
  profile_id?: string;
  /** Any of these decisions (the record's `decision`), compared case-insensitively. */
  decisions?: string[];
  from?: string;
  to?: string;
  limit?: number;
  offset?: number;
}

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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface EventRepository<E extends EventRow> {
  insert(events: E | E[]): Promise<void>;
  list(query?: EventQuery): Promise<{ items: E[]; total: number }>;
  /** One event by id (null when missing or not a UUID). */
  get(id: string): Promise<E | null>;
  /** The dashboard's aggregations over a window, computed in SQL. */
  stats(query: EventStatsQuery): Promise<EventStats>;
  /** Deletes events older than `before`; returns how many. Retention worker only. */
  deleteBefore(before: string): Promise<number>;
  /** Rewrites the stored record of each event older than `before` with `scrub` (detail retention). */
  scrubBefore(before: string, scrub: (event: E) => E, batchSize?: number): Promise<number>;
}

export function createEventRepository<E extends EventRow>(db: Database): EventRepository<E> {
  function filter(query: EventQuery, params: unknown[]): string {
    const parts: string[] = [];
    const add = (sql: (n: string) => string, value: unknown) => {
      params.push(value);
      parts.push(sql(`$${params.length}`));
    };
    if (query.trace_id) add((p) => `trace_id = ${p}`, query.trace_id);
    if (query.tenant_ids) add((p) => `tenant_id = ANY(${p})`, query.tenant_ids);
    // Filters compare case-insensitively (DECISIONS.md "Security event").
    if (query.event_types?.length) add((p) => `upper(event_type) = ANY(${p})`, query.event_types.map((s) => s.toUpperCase()));
    if (query.severities?.length) add((p) => `upper(severity) = ANY(${p})`, query.severities.map((s) => s.toUpperCase()));
    if (query.provider_id) add((p) => `provider_id = ${p}`, query.provider_id);
    if (query.profile_id) add((p) => `profile_id = ${p}`, query.profile_id);
    if (query.decisions?.length) add((p) => `upper(data->>'decision') = ANY(${p})`, query.decisions.map((s) => s.toUpperCase()));
    if (query.from) add((p) => `ts >= ${p}`, query.from);
    if (query.to) add((p) => `ts < ${p}`, query.to);
    return parts.length ? `WHERE ${parts.join(' AND ')}` : '';
  }

  return {
    async insert(input) {
      const events = Array.isArray(input) ? input : [input];
      if (events.length === 0) return;
      const params: unknown[] = [];
      const rows = events.map((e) => {
        const base = params.length;
        params.push(e.id, e.trace_id, e.timestamp, e.event_type, e.severity, e.tenant_id, e.provider_id ?? null, e.profile_id ?? null, JSON.stringify(e));
        return `(${Array.from({ length: 9 }, (_, i) => `$${base + i + 1}${i === 8 ? '::jsonb' : ''}`).join(', ')})`;
      });
      // ON CONFLICT keeps the writer idempotent under the stream's at-least-once redelivery.
      await db.query(
        `INSERT INTO security_events (id, trace_id, ts, event_type, severity, tenant_id, provider_id, profile_id, data)
         VALUES ${rows.join(', ')} ON CONFLICT (id) DO NOTHING`,
        params,
      );
    },
    async list(query = {}) {
      const params: unknown[] = [];
      const where = filter(query, params);
      const total = await db.query<{ n: string | number }>(`SELECT count(*) AS n FROM security_events ${where}`, params);
      const rows = await db.query<{ data: E }>(
        `SELECT data FROM security_events ${where} ORDER BY ts DESC, id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, query.limit ?? 50, query.offset ?? 0],
      );
      return { items: rows.rows.map((r) => r.data), total: Number(total.rows[0]?.n ?? 0) };
    },
    async get(id) {
      if (!UUID.test(id)) return null;
      const result = await db.query<{ data: E }>('SELECT data FROM security_events WHERE id = $1', [id]);
      return result.rows[0]?.data ?? null;
    },
    async stats(query) {
      const params: unknown[] = [];
      const where = filter({ ...(query.tenant_ids ? { tenant_ids: query.tenant_ids } : {}), from: query.from, to: query.to }, params);
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
    },
    async deleteBefore(before) {
      const result = await db.query('DELETE FROM security_events WHERE ts < $1', [before]);
      return result.rowCount;
    },
    async scrubBefore(before, scrub, batchSize = 500) {
      let changed = 0;
      for (;;) {
        // Scrubbed rows are marked in the record so that each batch moves on to new rows.
        const batch = await db.query<{ data: E }>(
          `SELECT data FROM security_events WHERE ts < $1 AND NOT (data ? '_scrubbed') ORDER BY ts LIMIT $2`,
          [before, batchSize],
        );
        if (batch.rows.length === 0) return changed;
        await db.transaction(async (tx) => {
          for (const { data } of batch.rows) {
            const next = { ...scrub(data), _scrubbed: true };
            await tx.query('UPDATE security_events SET data = $2::jsonb WHERE id = $1', [data.id, JSON.stringify(next)]);
          }
        });
        changed += batch.rows.length;
      }
    },
  };
}
